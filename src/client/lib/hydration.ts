// Whether the browser is hydrating a page the server drew (docs/decisions/034). While it does, what a
// render reads from the clock must be what the server's render read; right after, the live clock.

let hydrating = false;

/** Called just before hydrateRoot (main.tsx). */
export function startHydrating(): void {
  hydrating = true;
}

/** Called once the hydrating render has committed (app-root.tsx's effect, the last to run). */
export function hydrationDone(): void {
  hydrating = false;
}

/** True on the server, and in the browser from startHydrating to hydrationDone. */
export function isHydrating(): boolean {
  return hydrating || typeof window === 'undefined';
}
