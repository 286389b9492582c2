package io.ytstream.application;

import java.util.Objects;

/**
 * What one writer task of a transactional batch reports to the driver: the batch (epoch) and the
 * batch transaction it wrote into, how many rows went to each output tablet, and, when it kept none
 * of them, why ({@code notKept}; it then inserted nothing).
 */
public record WriterReport(
    long epochId, String transactionId, long[] rowsPerTablet, String notKept) {

  public WriterReport {
    Objects.requireNonNull(transactionId, "transactionId");
    rowsPerTablet = rowsPerTablet.clone();
  }

  @Override
  public long[] rowsPerTablet() {
    return rowsPerTablet.clone();
  }
}
