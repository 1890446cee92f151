/**
 * The route guard (docs/product.md, Screens): waits for the first present identity (signed in or guest);
 * with none, or on error, redirects to /guest?returnUrl=<requested URL>.
 */
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useSelector } from '@xstate/react';
import { getIdentity } from '../app/services';
import { Spinner } from './Spinner';

export function RequireIdentity({ children }: { children: ReactNode }) {
  const state = useSelector(getIdentity(), (s) => s.value);
  const location = useLocation();
  if (state === 'resolving') return <Spinner label="Loading..." />;
  if (state === 'none') {
    const returnUrl = location.pathname + location.search;
    return <Navigate to={`/guest?returnUrl=${encodeURIComponent(returnUrl)}`} replace />;
  }
  return <>{children}</>;
}
