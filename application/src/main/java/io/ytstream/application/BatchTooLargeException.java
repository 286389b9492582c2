package io.ytstream.application;

/**
 * A transactional batch cannot commit as planned: it holds more rows for one output tablet than one
 * transaction may write, or a writer ran out of memory keeping its rows. Nothing was written and
 * the consumer did not move; the message names the options to change. The batch fails the same way
 * after every restart until the user changes them.
 */
public final class BatchTooLargeException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  BatchTooLargeException(String message, Throwable cause) {
    super(message, cause);
  }
}
