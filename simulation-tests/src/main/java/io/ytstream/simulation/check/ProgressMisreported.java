package io.ytstream.simulation.check;

/**
 * The source's progress report names more rows behind, or a later end, than the queue holds, or its
 * lag in rows, bytes or seconds disagrees with the queue.
 *
 * <p>Over the ledger of what was read and written: Verifier.onSourceProgress and onLastLag find it.
 */
public final class ProgressMisreported {

  public static final Property PROPERTY =
      new Property("ProgressMisreported", "progress report disagrees with the queue");

  private ProgressMisreported() {}
}
