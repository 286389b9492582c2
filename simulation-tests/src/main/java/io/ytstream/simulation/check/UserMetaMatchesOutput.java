package io.ytstream.simulation.check;

/**
 * Producer mode: a session's user_meta names another source position than the output's.
 *
 * <p>Over the ledger of what was read and written: ProducerSessionChecks finds it.
 */
public final class UserMetaMatchesOutput {

  public static final Property PROPERTY =
      new Property("UserMetaMatchesOutput", "user_meta disagrees with the output");

  private UserMetaMatchesOutput() {}
}
