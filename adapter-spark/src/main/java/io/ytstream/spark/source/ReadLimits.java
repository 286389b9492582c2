package io.ytstream.spark.source;

import io.ytstream.core.plan.TriggerLimit;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.apache.spark.sql.connector.read.streaming.CompositeReadLimit;
import org.apache.spark.sql.connector.read.streaming.ReadLimit;
import org.apache.spark.sql.connector.read.streaming.ReadMaxBytes;
import org.apache.spark.sql.connector.read.streaming.ReadMaxRows;
import org.apache.spark.sql.connector.read.streaming.ReadMinRows;

/**
 * Spark's {@link ReadLimit} and core's {@link TriggerLimit}, each made from the other. Spark hands
 * the source's default limit back on every trigger (Trigger.AvailableNow included; Trigger.Once
 * passes all available instead, {@code MicroBatchExecution}), so the options travel this way.
 */
final class ReadLimits {

  private ReadLimits() {}

  /**
   * What the source asks Spark to pass on every trigger: each limit set, one composite when there
   * are several, as Kafka's source combines its minimum and maximum.
   */
  static ReadLimit toSpark(TriggerLimit limit) {
    List<ReadLimit> parts = new ArrayList<>(3);
    if (limit.minRows().isPresent()) {
      parts.add(ReadLimit.minRows(limit.minRows().getAsLong(), limit.maxDelayMs()));
    }
    if (limit.maxRows().isPresent()) {
      parts.add(ReadLimit.maxRows(limit.maxRows().getAsLong()));
    }
    if (limit.maxBytes().isPresent()) {
      parts.add(ReadLimit.maxBytes(limit.maxBytes().getAsLong()));
    }
    return switch (parts.size()) {
      case 0 -> ReadLimit.allAvailable();
      case 1 -> parts.get(0);
      default -> ReadLimit.compositeLimit(parts.toArray(new ReadLimit[0]));
    };
  }

  /** The limit Spark passed for this trigger (all available, or rows and bytes as above). */
  static TriggerLimit fromSpark(ReadLimit limit) {
    OptionalLong max = OptionalLong.empty();
    OptionalLong min = OptionalLong.empty();
    OptionalLong bytes = OptionalLong.empty();
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
      } else if (part instanceof ReadMaxBytes maxBytes) {
        bytes = OptionalLong.of(maxBytes.maxBytes());
      }
    }
    return new TriggerLimit(max, min, delay, bytes);
  }
}
