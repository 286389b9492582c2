package io.ytstream.simulation.check;

/**
 * After recovery, the checkpoint and the consumer tell different stories.
 *
 * <p>Over the ledger of what was read and written: Verifier.onRecovery finds it.
 */
public final class CheckpointConsumerDisagree {

  public static final Property PROPERTY =
      new Property("CheckpointConsumerDisagree", "checkpoint and consumer disagree");

  private CheckpointConsumerDisagree() {}
}
