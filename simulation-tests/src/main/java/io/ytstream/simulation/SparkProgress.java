package io.ytstream.simulation;

import io.ytstream.application.StreamingSource;
import io.ytstream.core.model.StreamOffsets;
import java.util.Optional;

/**
 * Spark's {@code ProgressReporter.finishTrigger} at a batch's end: the source's latest offsets and
 * metrics, as the query's progress shows them, handed to the checker.
 */
final class SparkProgress {

  private SparkProgress() {}

  /**
   * @param plannedLostRows the trimmed rows this driver's plans skipped, which the source's
   *     lostRows metric counts
   */
  static void finishTrigger(
      SimContext ctx,
      StreamingSource source,
      StreamOffsets end,
      long plannedLostRows,
      boolean zombie) {
    Optional<StreamOffsets> latest = source.reportLatestOffset();
    ctx.verifier.onSourceProgress(
        end,
        latest,
        source.metrics(Optional.of(end), Optional.empty(), ctx.verifier::onLagUnreadable),
        plannedLostRows,
        zombie);
    if (!zombie && latest.isPresent()) {
      ctx.verifier.onLastLag(end, latest.get(), source.lastLag());
    }
  }
}
