package io.ytstream.spark.source;

import io.ytstream.core.plan.TriggerLimit;
import java.util.OptionalLong;
import org.apache.spark.sql.connector.read.streaming.CompositeReadLimit;
import org.apache.spark.sql.connector.read.streaming.ReadLimit;
import org.apache.spark.sql.connector.read.streaming.ReadMaxRows;
import org.apache.spark.sql.connector.read.streaming.ReadMinRows;

/** Spark's {@link ReadLimit} and core's {@link TriggerLimit}, each made from the other. */
final class ReadLimits {

  private ReadLimits() {}

  /** What the source asks Spark to pass on every trigger, as Kafka's source does. */
  static ReadLimit toSpark(TriggerLimit limit) {
    if (limit.minRows().isPresent() && limit.maxRows().isPresent()) {
      return ReadLimit.compositeLimit(
          new ReadLimit[] {
            ReadLimit.minRows(limit.minRows().getAsLong(), limit.maxDelayMs()),
            ReadLimit.maxRows(limit.maxRows().getAsLong())
          });
    }
    if (limit.minRows().isPresent()) {
      return ReadLimit.minRows(limit.minRows().getAsLong(), limit.maxDelayMs());
    }
    if (limit.maxRows().isPresent()) {
      return ReadLimit.maxRows(limit.maxRows().getAsLong());
    }
    return ReadLimit.allAvailable();
  }

  /** The limit Spark passed for this trigger (all available, or rows as above). */
  static TriggerLimit fromSpark(ReadLimit limit) {
    OptionalLong max = OptionalLong.empty();
    OptionalLong min = OptionalLong.empty();
    long delay = TriggerLimit.DEFAULT_MAX_DELAY_MS;
    ReadLimit[] parts =
        limit instanceof CompositeReadLimit composite
            ? composite.getReadLimits()
            : new ReadLimit[] {limit};
    for (ReadLimit part : parts) {
      if (part instanceof ReadMaxRows rows) {
        max = OptionalLong.of(rows.maxRows());
      } else if (part instanceof ReadMinRows rows) {
        min = OptionalLong.of(rows.minRows());
        delay = rows.maxTriggerDelayMs();
      }
    }
    return new TriggerLimit(max, min, delay);
  }
}
