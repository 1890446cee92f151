import { Link } from 'react-router-dom';
import { Page } from '../components/Page';

export function GameModes() {
  return (
    <Page>
      <section className="modes">
        <div className="screen-head">
          <Link to="/" className="back-link">← Back to Home</Link>
          <h1>Game Modes</h1>
        </div>
        <div className="mode-grid">
          <Link to="/chess/multiplayer" className="mode-card">
            <h2>Multiplayer</h2>
            <p>Play online against another player with a 10-minute clock per side.</p>
          </Link>
          <Link to="/chess/ai" className="mode-card">
            <h2>Play Against AI</h2>
            <p>Challenge a computer opponent at the difficulty you choose.</p>
          </Link>
          <Link to="/chess/local" className="mode-card">
            <h2>Local Play</h2>
            <p>Two players on the same device, one board and both clocks.</p>
          </Link>
        </div>
        <p className="center"><Link to="/chess/stats">Your Stats</Link></p>
      </section>
    </Page>
  );
}
