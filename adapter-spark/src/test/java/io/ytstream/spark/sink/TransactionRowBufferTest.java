package io.ytstream.spark.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.spark.SparkConf;
import org.apache.spark.memory.TaskMemoryManager;
import org.apache.spark.memory.UnifiedMemoryManager;
import org.apache.spark.memory.UnifiedMemoryManager$;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

/** The transactional writer's buffer stays inside the task's share of Spark's execution memory. */
class TransactionRowBufferTest {

  private static final StructType SCHEMA =
      new StructType().add("id", DataTypes.LongType).add("payload", DataTypes.StringType);

  /** A memory manager with 4 MiB of heap for Spark (2.4 MiB of it execution and storage). */
  private static UnifiedMemoryManager smallMemory() {
    SparkConf conf =
        new SparkConf(false)
            .set("spark.testing.memory", Long.toString(4L << 20))
            .set("spark.testing.reservedMemory", "0");
    return UnifiedMemoryManager$.MODULE$.apply(conf, 1);
  }

  private static UnsafeRow row(UnsafeProjection toUnsafe, long id) {
    return toUnsafe.apply(
        new GenericInternalRow(new Object[] {id, UTF8String.fromString("payload-" + id)}));
  }

  @Test
  void keepsCompactCopiesAndReservesTheirMemory() {
    UnifiedMemoryManager memory = smallMemory();
    TransactionRowBuffer buffer = new TransactionRowBuffer(new TaskMemoryManager(memory, 0));
    UnsafeProjection toUnsafe = UnsafeProjection.create(SCHEMA);
    for (long i = 0; i < 1_000; i++) {
      buffer.add(row(toUnsafe, i), i);
    }
    assertNull(buffer.stoppedBecause());
    assertEquals(1_000, buffer.rows().size());
    // The projection reuses its row: the buffer must have copied each one.
    assertEquals(0L, buffer.rows().get(0).getLong(0));
    assertEquals("payload-999", buffer.rows().get(999).getUTF8String(1).toString());
    assertTrue(memory.executionMemoryUsed() > 0, "memory reserved from Spark");
    buffer.release();
    assertEquals(0, memory.executionMemoryUsed(), "memory given back");
  }

  @Test
  void stopsKeepingRowsWhenSparkHasNoRoomAndGivesTheMemoryBack() {
    UnifiedMemoryManager memory = smallMemory();
    TransactionRowBuffer buffer = new TransactionRowBuffer(new TaskMemoryManager(memory, 0));
    UnsafeProjection toUnsafe = UnsafeProjection.create(SCHEMA);
    for (long i = 0; i < 200_000; i++) {
      buffer.add(row(toUnsafe, i), i);
    }
    assertNotNull(buffer.stoppedBecause(), "200,000 rows do not fit in 2.4 MiB");
    assertTrue(buffer.stoppedBecause().contains("execution memory"), buffer.stoppedBecause());
    assertTrue(
        buffer.stoppedAtRow() > 1_000 && buffer.stoppedAtRow() < 200_000,
        "stopped at " + buffer.stoppedAtRow());
    assertEquals(0, buffer.rows().size(), "rows dropped");
    assertEquals(0, memory.executionMemoryUsed(), "memory given back at once");
  }

  @Test
  void aStoppedBufferKeepsNothingMore() {
    TransactionRowBuffer buffer = new TransactionRowBuffer(null);
    UnsafeProjection toUnsafe = UnsafeProjection.create(SCHEMA);
    buffer.add(row(toUnsafe, 0), 0);
    buffer.stop("too many rows for one tablet", 1);
    buffer.add(row(toUnsafe, 1), 1);
    assertEquals(0, buffer.rows().size());
    assertEquals("too many rows for one tablet", buffer.stoppedBecause());
    assertEquals(1, buffer.stoppedAtRow());
  }
}
