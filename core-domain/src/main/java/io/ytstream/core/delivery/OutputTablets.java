package io.ytstream.core.delivery;

/**
 * Which tablet of an ordered output a writer's row goes to: row {@code k} of the task for partition
 * {@code p} goes to tablet {@code (p + k) mod tablets}. Every writer into an ordered table or a
 * queue uses this one rule, so the driver can count a batch's rows per tablet, and a replayed task
 * puts each row where its first attempt did.
 */
public final class OutputTablets {

  private OutputTablets() {}

  public static int forRow(long taskPartition, long rowNumber, int tablets) {
    if (tablets < 1) {
      throw new IllegalArgumentException("an output has at least one tablet: " + tablets);
    }
    return (int) Math.floorMod(taskPartition + rowNumber, (long) tablets);
  }
}
