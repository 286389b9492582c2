package io.ytstream.core.plan;

import java.util.List;
import java.util.stream.Collectors;

/** Thrown by the planner when rows were trimmed before being read and the policy is FAIL. */
public class DataLossException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final transient List<DataLoss> losses;

  public DataLossException(List<DataLoss> losses) {
    super(
        "data loss: "
            + losses.stream().map(DataLoss::toString).collect(Collectors.joining("; "))
            + ". The queue was trimmed past the consumer (is the consumer registered as vital?)."
            + " To skip the lost rows and go on, set the option fail_on_data_loss=false; the"
            + " skipped count is then reported in the query progress.");
    this.losses = List.copyOf(losses);
  }

  public List<DataLoss> losses() {
    return losses;
  }
}
