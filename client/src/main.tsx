import './app/zodJitless';
import { StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import './styles.css';
import { startInspector } from './app/inspector';
import { startServices } from './app/services';
import { followAccountPreferences, resolveInitialIdentity } from './app/auth';
import { App } from './App';
import { StartupFailure } from './screens/StartupFailure';

window.addEventListener('unhandledrejection', (e) => console.error('unhandled rejection', e.reason));
window.addEventListener('error', (e) => console.error('unhandled error', e.error ?? e.message));

async function boot(root: Root): Promise<void> {
  try {
    await startInspector();
    startServices();
    followAccountPreferences();
    resolveInitialIdentity();
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  } catch (err) {
    console.error('start-up failed', err);
    if (import.meta.env.PROD) root.render(<StartupFailure />);
    else root.render(<pre role="alert">{String(err instanceof Error ? err.stack : err)}</pre>);
  }
}

void boot(createRoot(document.getElementById('root')!));
