/** Whole seconds left until a monotonic deadline, re-rendered each second; nothing once it has passed. */
import { useEffect, useState } from 'react';

export function Countdown({ until, now, render }: { until: number; now: () => number; render: (seconds: number) => string }) {
  const [, setTick] = useState(0);
  const left = until - now();
  useEffect(() => {
    if (left <= 0) return;
    const t = setTimeout(() => setTick((n) => n + 1), (left % 1000) + 1);
    return () => clearTimeout(t);
  });
  if (left <= 0) return null;
  return <>{render(Math.ceil(left / 1000))}</>;
}
