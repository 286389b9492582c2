package io.ytstream.spark.sink;

import io.ytstream.application.checkpoint.QueryCheckpoint;
import io.ytstream.spark.checkpoint.HadoopCheckpointFiles;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.connector.write.streaming.StreamingDataWriterFactory;
import org.apache.spark.sql.connector.write.streaming.StreamingWrite;

/**
 * The driver side of the producer-session sink ({@code producer_path}): each task pushes its share
 * through a producer session of its own ({@link YtProducerDataWriter}). The factory carries the
 * source's end offsets of the batch, read from the newest {@code offsets/N} of the checkpoint
 * (Spark writes it before the batch runs and does not pass the batch id to the factory), for the
 * sessions' user_meta. {@link #commit} only reports what the pushes did; the consumer moves in the
 * source's commit after {@code commits/N}, as in at-least-once.
 */
final class ProducerStreamingWrite implements StreamingWrite {

  private final YtWriteSpec spec;
  private final ProducerTarget producer;
  private final QueryCheckpoint checkpoint;

  /**
   * @param checkpoint where the batches' source offsets are found; null when the query's checkpoint
   *     location is not an option of writeStream
   */
  ProducerStreamingWrite(
      YtWriteSpec spec, ProducerTarget producer, Path checkpoint, Configuration hadoopConf) {
    this.spec = spec;
    this.producer = producer;
    this.checkpoint =
        checkpoint == null
            ? null
            : new QueryCheckpoint(new HadoopCheckpointFiles(checkpoint, hadoopConf));
  }

  /**
   * No commit coordinator: any attempt of a task may finish its share, since the share's session
   * and sequence numbers keep a second attempt from writing anything twice. With the coordinator, a
   * retry that asked before Spark cleared a failed attempt's authorization was denied, and the
   * query could end with Spark's "Commit denied" instead of the failed attempt's own error.
   */
  @Override
  public boolean useCommitCoordinator() {
    return false;
  }

  @Override
  public StreamingDataWriterFactory createStreamingWriterFactory(PhysicalWriteInfo info) {
    return YtDataWriterFactory.throughProducer(spec, withLatestSourceEnd());
  }

  /**
   * The producer target, with the source's end of the batch about to run. A failed read of the
   * offset log fails the batch (it runs again after the restart): without the end in user_meta, a
   * replay over another source range could not be refused.
   */
  private ProducerTarget withLatestSourceEnd() {
    if (checkpoint == null) {
      return producer;
    }
    return checkpoint
        .latestBatchEnd()
        .map(end -> producer.withSourceEnd(end.batchId(), end.offsets()))
        .orElse(producer);
  }

  @Override
  public void commit(long epochId, WriterCommitMessage[] messages) {
    ProducerBatchReport.of(epochId, messages).log(spec.path().value());
  }

  @Override
  public void abort(long epochId, WriterCommitMessage[] messages) {}

  @Override
  public String toString() {
    return "ProducerStreamingWrite[" + spec.path() + ", through " + producer.producer() + "]";
  }
}
