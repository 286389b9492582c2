package io.ytstream.inmemory;

import com.google.common.base.Preconditions;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The named in-memory clusters of this JVM, so that {@code inmemory:demo} reaches the same cluster
 * from the driver, from every executor thread and from the test that set it up. A name is created
 * on first use (on the wall clock); tests register their own (e.g. on a {@link ManualClock}) first.
 */
public final class InMemoryClusters {

  private static final Map<String, InMemoryCluster> BY_NAME = new TreeMap<>();

  private InMemoryClusters() {}

  /** The cluster called {@code name}, created with the system clock if there is none yet. */
  public static synchronized InMemoryCluster getOrCreate(String name) {
    return BY_NAME.computeIfAbsent(name, InMemoryCluster::withSystemClock);
  }

  public static synchronized Optional<InMemoryCluster> find(String name) {
    return Optional.ofNullable(BY_NAME.get(name));
  }

  /** Makes {@code cluster} the one its name resolves to; fails if the name is taken. */
  public static synchronized void register(InMemoryCluster cluster) {
    Preconditions.checkState(
        !BY_NAME.containsKey(cluster.name()),
        "an in-memory cluster named %s is already registered; remove it first",
        cluster.name());
    BY_NAME.put(cluster.name(), cluster);
  }

  /** Forgets a name; connections already made keep their cluster. */
  public static synchronized Optional<InMemoryCluster> remove(String name) {
    return Optional.ofNullable(BY_NAME.remove(name));
  }
}
