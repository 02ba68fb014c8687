/**
 * Runs work one at a time per key, in call order: each call starts when the previous one for the same key
 * has settled (fulfilled or not). Keys with nothing queued cost nothing.
 */
export function oneAtATime(): <T>(key: string, work: () => Promise<T>) => Promise<T> {
  const tails = new Map<string, Promise<void>>();
  return (key, work) => {
    const result = (tails.get(key) ?? Promise.resolve()).then(work);
    const tail = result.then(
      () => {},
      () => {},
    );
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return result;
  };
}
