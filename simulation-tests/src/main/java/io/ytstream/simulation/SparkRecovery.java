package io.ytstream.simulation;

import io.ytstream.application.StreamingSource;
import io.ytstream.application.checkpoint.QueryCheckpoint;
import io.ytstream.application.checkpoint.SourceRecord;
import io.ytstream.core.delivery.CheckpointRecovery;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import java.util.List;
import java.util.OptionalLong;

/**
 * Where a (re)started driver goes on, from the checkpoint's logs alone: Spark's {@code
 * MicroBatchExecution.populateStartOffsets}. Without logs the query starts fresh; when {@code
 * commits/N} follows {@code offsets/N} the next batch is N+1 from N's logged end; otherwise batch N
 * runs again, from {@code offsets/N-1} or, for batch 0, the source's {@code initialOffset()}.
 */
final class SparkRecovery {

  /** The next batch to plan, from where; or a batch to run again first. */
  record Resume(long nextBatchId, StreamOffsets nextStart, BatchInFlight rerun) {}

  private SparkRecovery() {}

  static Resume recover(
      SimContext ctx,
      int driverId,
      SparkLogFiles logs,
      YPath offsetsDir,
      YPath commitsDir,
      QueryCheckpoint checkpoint,
      StreamingSource source) {
    ctx.io.createDirectories(offsetsDir);
    ctx.io.createDirectories(commitsDir);
    OptionalLong latestOffsets = logs.latest(offsetsDir);
    OptionalLong latestCommit = logs.latest(commitsDir);
    CheckpointRecovery.Decision d = CheckpointRecovery.decide(latestOffsets, latestCommit);
    if (ctx.tracing()) {
      ctx.trace("d" + driverId + " recovery " + d.action() + " " + d.batch());
    }
    switch (d.action()) {
      case START_FRESH -> {
        ctx.verifier.onRecovery(d, null, null);
        return new Resume(0, null, null);
      }
      case CONTINUE -> {
        StreamOffsets start = loggedEnd(checkpoint, d.batch() - 1);
        StreamOffsets before =
            d.batch() >= 2
                ? loggedEnd(checkpoint, d.batch() - 2)
                : checkpoint.source(0).map(SourceRecord::initial).orElse(StreamOffsets.empty());
        ctx.verifier.onRecovery(d, before, start);
        return new Resume(d.batch(), start, null);
      }
      case RERUN -> {
        long n = d.batch();
        StreamOffsets end = loggedEnd(checkpoint, n);
        StreamOffsets start =
            n > 0 ? loggedEnd(checkpoint, n - 1) : source.initialOffset().offsets();
        ctx.verifier.onRecovery(d, start, end);
        return new Resume(n, null, new BatchInFlight(n, start, end));
      }
    }
    throw new IllegalStateException("recovery " + d.action());
  }

  /** The source's end in {@code offsets/N}, as Spark deserializes it for the source. */
  static StreamOffsets loggedEnd(QueryCheckpoint checkpoint, long n) {
    List<StreamOffsets> ends = checkpoint.batchEnd(n);
    return ends.isEmpty() ? StreamOffsets.empty() : ends.get(0);
  }
}
