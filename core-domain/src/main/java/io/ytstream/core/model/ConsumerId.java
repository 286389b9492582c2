package io.ytstream.core.model;

import java.util.Objects;

/**
 * A consumer: a sorted table {@code (queue_cluster, queue_path, partition_index) -> offset} on a
 * named cluster. One consumer may serve several queues.
 */
public record ConsumerId(String cluster, YPath path) {

  public ConsumerId {
    ClusterNames.validate(cluster);
    Objects.requireNonNull(path, "path");
  }

  public static ConsumerId of(String cluster, String path) {
    return new ConsumerId(cluster, YPath.of(path));
  }

  @Override
  public String toString() {
    return cluster + ":" + path.value();
  }
}
