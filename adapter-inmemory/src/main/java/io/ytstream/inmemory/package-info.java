/**
 * An in-memory YTsaurus cluster with YTsaurus semantics and fault injection.
 *
 * <p>Entry points: {@link io.ytstream.inmemory.InMemoryCluster} (every port plus the admin API),
 * {@link io.ytstream.inmemory.FaultInjector} (reached through {@code cluster.faults()}), {@link
 * io.ytstream.inmemory.ManualClock}, and the {@code inmemory:<name>} connector with its JVM-wide
 * registry {@link io.ytstream.inmemory.InMemoryClusters}.
 *
 * <p>Deliberate simplifications, each of which a real cluster may do differently:
 *
 * <ul>
 *   <li>Committed rows are visible at once (no barrier-timestamp delay, no registration cache).
 *   <li>Sorted tables have one tablet, so the per-tablet row limit counts per table for them.
 *   <li>Rows without {@code $tablet_index} go round-robin, never to a random tablet.
 *   <li>Advancing a consumer writes {@code meta} as null.
 *   <li>A commit that fails with an injected error before "arriving" leaves its transaction alive;
 *       a commit that fails for a real reason (1700, 1717) aborts it, as YTsaurus does.
 * </ul>
 */
package io.ytstream.inmemory;
