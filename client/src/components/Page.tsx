import type { ReactNode } from 'react';
import { Header } from './Header';

/** A screen under the site header; `play` gives a game the whole viewport below it, without page scroll. */
export function Page({ children, narrow, play }: { children: ReactNode; narrow?: boolean; play?: boolean }) {
  return (
    <>
      <Header />
      <main className={play ? 'page-play' : narrow ? 'page page-narrow' : 'page'}>
        {children}
      </main>
    </>
  );
}
