package io.ytstream.core.delivery;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Whether a transactional batch may commit, judged from the ends of its write job's task attempts,
 * in the order the engine reports them.
 *
 * <p>Why: a writer inserts into the batch transaction only after the engine's commit coordinator
 * authorizes its attempt, but when an authorized attempt ends in failure the coordinator lets a
 * retry insert the whole partition again into the same transaction. An attempt that throws after
 * inserting has its writer abort the transaction; one whose executor died, that was killed, or
 * whose result was lost aborted nothing, and the transaction may hold its rows beside the retry's.
 *
 * <p>An end taints the batch unless it is a success, a commit denial (never authorized), a failure
 * before the first insert, or any end of an attempt whose partition had already succeeded (the
 * winner holds the coordinator's lock: a later copy was never authorized). Everything else taints:
 * the driver cannot tell whether such an attempt was authorized and inserted.
 */
public final class WriteJobVerdict {

  private final TreeSet<Integer> succeeded = new TreeSet<>();
  private final List<String> taints = new ArrayList<>();

  /** The verdict over {@code ends}, in the order they were reported. */
  public static WriteJobVerdict of(List<TaskAttemptEnd> ends) {
    WriteJobVerdict verdict = new WriteJobVerdict();
    ends.forEach(verdict::taskEnded);
    return verdict;
  }

  /** Takes the next attempt's end. */
  public void taskEnded(TaskAttemptEnd end) {
    if (end.outcome() == TaskAttemptEnd.Outcome.SUCCEEDED) {
      succeeded.add(end.partition());
    } else if (mayHaveLeftRows(end.outcome()) && !succeeded.contains(end.partition())) {
      taints.add(end.description());
    }
  }

  /** Whether no reported end may have left rows in the transaction behind a retry's. */
  public boolean committable() {
    return taints.isEmpty();
  }

  /** The descriptions of the ends that taint the batch, in the order reported. */
  public List<String> taints() {
    return List.copyOf(taints);
  }

  /** Whether an attempt that ended so may have inserted rows that nobody aborted. */
  public static boolean mayHaveLeftRows(TaskAttemptEnd.Outcome outcome) {
    return switch (outcome) {
      case SUCCEEDED, COMMIT_DENIED, FAILED_BEFORE_INSERT -> false;
      case FAILED_AFTER_INSERT, EXECUTOR_LOST, KILLED, RESULT_LOST, OTHER -> true;
    };
  }
}
