/**
 * Makes everything on the page inert except `keep` (and what contains them): a modal region without
 * <dialog> (the admin menu drawer on a phone: its button and its links). Tab, the virtual cursor and
 * clicks reach only the kept elements. Returns the undo, which restores exactly what it changed.
 */
export function inertOutside(keep: HTMLElement[]): () => void {
  const changed: HTMLElement[] = [];
  const keeps = (element: Element) => keep.some((kept) => element.contains(kept));
  const done = new Set<Element>();
  for (const kept of keep) {
    let node: HTMLElement | null = kept;
    while (node && node !== document.body) {
      const parent: HTMLElement | null = node.parentElement;
      if (!parent || done.has(parent)) break;
      done.add(parent);
      for (const sibling of Array.from(parent.children)) {
        if (!(sibling instanceof HTMLElement) || keeps(sibling) || sibling.inert) continue;
        sibling.inert = true;
        changed.push(sibling);
      }
      node = parent;
    }
  }
  return () => {
    for (const element of changed) element.inert = false;
  };
}
