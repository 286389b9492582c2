package io.ytstream.application;

import io.ytstream.ports.ConsumerOffsets;
import io.ytstream.ports.QueueMetadata;
import io.ytstream.ports.QueuePartitionReader;
import io.ytstream.ports.QueueRangeReader;
import io.ytstream.ports.TableMetadata;
import java.util.Objects;

/**
 * The ports a streaming source drives: the queues' bounds, the consumer, pulls through the consumer
 * (lag in bytes and seconds), pulls without it (a start by time), and the queues' schemas (which
 * lag columns they declare).
 */
public record SourcePorts(
    QueueMetadata metadata,
    ConsumerOffsets consumers,
    QueuePartitionReader reader,
    QueueRangeReader rangeReader,
    TableMetadata tables) {

  public SourcePorts {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(consumers, "consumers");
    Objects.requireNonNull(reader, "reader");
    Objects.requireNonNull(rangeReader, "rangeReader");
    Objects.requireNonNull(tables, "tables");
  }
}
