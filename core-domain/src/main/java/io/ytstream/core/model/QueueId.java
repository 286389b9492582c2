package io.ytstream.core.model;

import java.util.Objects;

/**
 * A queue: an ordered dynamic table on a named cluster. Its text form {@code <cluster>:<path>} is
 * the key used in the versioned offsets JSON.
 */
public record QueueId(String cluster, YPath path) implements Comparable<QueueId> {

  public QueueId {
    ClusterNames.validate(cluster);
    Objects.requireNonNull(path, "path");
  }

  public static QueueId of(String cluster, String path) {
    return new QueueId(cluster, YPath.of(path));
  }

  /** Parses {@code <cluster>:<path>}, the form written by {@link #key()}. */
  public static QueueId parseKey(String key) {
    int colon = key.indexOf(":");
    if (colon <= 0) {
      throw new IllegalArgumentException(
          "queue key '" + key + "' is not of the form <cluster>:<path>, e.g. primary://home/q");
    }
    return new QueueId(key.substring(0, colon), YPath.of(key.substring(colon + 1)));
  }

  public String key() {
    return cluster + ":" + path.value();
  }

  @Override
  public int compareTo(QueueId other) {
    if (this == other) {
      return 0;
    }
    int byCluster = cluster.compareTo(other.cluster);
    return byCluster != 0 ? byCluster : path.compareTo(other.path);
  }

  @Override
  public String toString() {
    return key();
  }
}
