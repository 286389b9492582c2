package io.ytstream.simulation.check;

import java.util.Arrays;
import java.util.function.IntFunction;

/**
 * The reference model both runtimes check against, by source partition (its ordinal in the
 * workload): the rows produced into it (their values, in row order), the consumer's position as
 * last read, and how many times each copy of each row is in the output ({@code copy} is 0 but for
 * the micro-batch flatMap's extra rows, at most 3). The runtimes' hooks fill it from the cluster's
 * own state, never from what a driver believes; the checkers compare the query's doing with it.
 */
public final class Ledger {

  /** The copies a source row can have in the output. */
  public static final int MAX_COPIES = 4;

  private final long[][] values;
  private final int[] produced;
  private final int[][] copies;
  private final long[] consumer;
  private long rowsIn;

  public Ledger(int partitions) {
    values = new long[partitions][16];
    produced = new int[partitions];
    copies = new int[partitions][64];
    consumer = new long[partitions];
  }

  public int partitions() {
    return produced.length;
  }

  /** Row {@code produced(ordinal)} of the partition was produced with {@code value}. */
  public void produce(int ordinal, long value) {
    if (produced[ordinal] == values[ordinal].length) {
      values[ordinal] = Arrays.copyOf(values[ordinal], values[ordinal].length * 2);
    }
    values[ordinal][produced[ordinal]++] = value;
    rowsIn++;
  }

  /** The rows produced into the partition. */
  public long produced(int ordinal) {
    return produced[ordinal];
  }

  public long value(int ordinal, long row) {
    return values[ordinal][(int) row];
  }

  /** The rows produced over all partitions. */
  public long rowsIn() {
    return rowsIn;
  }

  /** How many times copy {@code copy} of the row is in the output. */
  public int copies(int ordinal, long row, int copy) {
    int i = (int) (row * MAX_COPIES + copy);
    return i < copies[ordinal].length ? copies[ordinal][i] : 0;
  }

  /** One more ({@code delta} 1) or one fewer (-1) copy in the output; returns the count before. */
  public int addCopy(int ordinal, long row, int copy, int delta) {
    int i = (int) (row * MAX_COPIES + copy);
    if (i >= copies[ordinal].length) {
      copies[ordinal] = Arrays.copyOf(copies[ordinal], Math.max(i + 1, copies[ordinal].length * 2));
    }
    int before = copies[ordinal][i];
    copies[ordinal][i] = before + delta;
    return before;
  }

  /** The consumer's position as last read. */
  public long consumer(int ordinal) {
    return consumer[ordinal];
  }

  public long[] consumer() {
    return consumer.clone();
  }

  /**
   * The consumer as read now, by ordinal: a partition that went back is {@link
   * NonmonotonicOffsets}; {@code name} names a partition. Returns whether any position moved.
   */
  public boolean consumerRead(long[] now, Violations out, IntFunction<String> name) {
    boolean moved = false;
    for (int o = 0; o < now.length; o++) {
      if (now[o] < consumer[o]) {
        out.add(
            NonmonotonicOffsets.PROPERTY,
            "consumer of " + name.apply(o) + " went back from " + consumer[o] + " to " + now[o]);
      }
      moved |= now[o] != consumer[o];
      consumer[o] = now[o];
    }
    return moved;
  }
}
