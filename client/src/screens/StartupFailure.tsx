export function StartupFailure() {
  return (
    <main className="page page-narrow">
      <section className="card" role="alert">
        <h1>We're experiencing technical difficulties</h1>
        <p>Please try refreshing the page...</p>
        <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>Refresh Page</button>
      </section>
    </main>
  );
}
