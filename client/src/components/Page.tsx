import type { ReactNode } from 'react';
import { Header } from './Header';

export function Page({ children, narrow }: { children: ReactNode; narrow?: boolean }) {
  return (
    <>
      <Header />
      <main className={narrow ? 'page page-narrow' : 'page'}>{children}</main>
    </>
  );
}
