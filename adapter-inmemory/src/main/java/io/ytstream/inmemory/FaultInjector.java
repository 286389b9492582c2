package io.ytstream.inmemory;

import com.google.common.base.Preconditions;
import com.google.common.collect.ImmutableList;
import io.ytstream.core.error.CommitOutcomeUnknownException;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.TransactionId;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Breaks the cluster on purpose: the next N calls of an operation fail (before or after taking
 * effect), commits end with an unknown outcome, transactions expire, partitions get trimmed. Faults
 * for one operation fire in the order they were scheduled; every fired fault is recorded so tests
 * can assert what happened. Thread-safe (it works under the cluster's lock).
 */
public final class FaultInjector {

  /** A placeholder in an operation's queue: the call runs normally and nothing is recorded. */
  private static final ScheduledFault PASS_THROUGH = new ScheduledFault(null, 0, "pass through");

  private final ClusterState cluster;
  private final Map<ClusterOperation, ArrayDeque<ScheduledFault>> pending =
      new EnumMap<>(ClusterOperation.class);
  private final List<FiredFault> fired = new ArrayList<>();

  FaultInjector(ClusterState cluster) {
    this.cluster = cluster;
  }

  /** The next {@code times} calls of {@code operation} fail with {@code code} before any effect. */
  public void failNext(ClusterOperation operation, int times, int code, String message) {
    schedule(operation, times, new ScheduledFault(FaultKind.FAIL_BEFORE, code, message));
  }

  /**
   * The next {@code calls} calls of {@code operation} pass untouched; faults scheduled after this
   * one fire from call {@code calls + 1} on. Lets a test pick, e.g. from a seed, which call of an
   * operation breaks.
   */
  public void skipNext(ClusterOperation operation, int calls) {
    if (calls > 0) {
      schedule(operation, calls, PASS_THROUGH);
    }
  }

  /** The next call of {@code operation} fails with {@code code} before any effect. */
  public void failNext(ClusterOperation operation, int code) {
    failNext(operation, 1, code, "Injected fault in " + operation);
  }

  /**
   * The next {@code times} calls of a mutating {@code operation} take effect, then fail with {@code
   * code}, as when the success response is lost.
   */
  public void failNextAfterApplying(
      ClusterOperation operation, int times, int code, String message) {
    Preconditions.checkArgument(
        operation.mutates(), "%s changes nothing, so it cannot fail after applying", operation);
    schedule(operation, times, new ScheduledFault(FaultKind.FAIL_AFTER_APPLYING, code, message));
  }

  /**
   * The next {@code times} commits through {@code operation} (COMMIT, ADVANCE, OUTPUT_APPEND,
   * OUTPUT_UPSERT) are applied, then throw {@link CommitOutcomeUnknownException}.
   */
  public void unknownOutcomeAfterApplying(ClusterOperation operation, int times) {
    checkCommits(operation);
    schedule(operation, times, new ScheduledFault(FaultKind.UNKNOWN_OUTCOME_AFTER_APPLYING, 0, ""));
  }

  /**
   * The next {@code times} commits through {@code operation} throw {@link
   * CommitOutcomeUnknownException} without being applied; their transactions are aborted.
   */
  public void unknownOutcomeWithoutApplying(ClusterOperation operation, int times) {
    checkCommits(operation);
    schedule(
        operation, times, new ScheduledFault(FaultKind.UNKNOWN_OUTCOME_WITHOUT_APPLYING, 0, ""));
  }

  /**
   * Expires a live transaction now, as if its lease lapsed: every later use fails with 11000. Fails
   * with 11000 itself when the transaction is not live (finished, expired or unknown).
   */
  public void expireTransaction(TransactionId id) {
    synchronized (cluster) {
      cluster.transactions().expireNow(id);
    }
  }

  /** Trims a queue partition now (absolute, {@code max(old, new)}), as the Queue Agent would. */
  public void trimPartition(YPath queue, int tablet, long trimmedRowCount) {
    synchronized (cluster) {
      cluster.trimRows(queue, tablet, trimmedRowCount);
    }
  }

  /** Every fault that has fired, in firing order. */
  public List<FiredFault> fired() {
    synchronized (cluster) {
      return ImmutableList.copyOf(fired);
    }
  }

  public int firedCount(ClusterOperation operation) {
    synchronized (cluster) {
      return (int) fired.stream().filter(f -> f.operation() == operation).count();
    }
  }

  /** Faults still waiting for {@code operation}. */
  public int pendingCount(ClusterOperation operation) {
    synchronized (cluster) {
      ArrayDeque<ScheduledFault> queue = pending.get(operation);
      return queue == null ? 0 : queue.size();
    }
  }

  /** Drops every fault not yet fired (the record of fired ones stays). */
  public void clearPending() {
    synchronized (cluster) {
      pending.clear();
    }
  }

  private void schedule(ClusterOperation operation, int times, ScheduledFault fault) {
    Preconditions.checkArgument(times > 0, "times must be > 0, got %s", times);
    synchronized (cluster) {
      ArrayDeque<ScheduledFault> queue =
          pending.computeIfAbsent(operation, op -> new ArrayDeque<>());
      for (int i = 0; i < times; i++) {
        queue.add(fault);
      }
    }
  }

  private static void checkCommits(ClusterOperation operation) {
    Preconditions.checkArgument(
        operation.commits(),
        "%s commits nothing, so its outcome cannot be unknown; use COMMIT, ADVANCE, OUTPUT_APPEND,"
            + " OUTPUT_UPSERT or MASTER_COMMIT",
        operation);
  }

  /** Runs a call that cannot have an unknown outcome. The caller holds the cluster lock. */
  <T> T call(ClusterOperation operation, Supplier<T> action) {
    return call(operation, action, () -> {});
  }

  void run(ClusterOperation operation, Runnable action) {
    call(
        operation,
        () -> {
          action.run();
          return null;
        });
  }

  /**
   * Runs a call through the faults scheduled for its operation. {@code dropWithoutApplying} undoes
   * nothing but records that a commit was lost (it aborts the transaction). The caller holds the
   * cluster lock, so the fault and the call are one atomic step.
   */
  <T> T call(ClusterOperation operation, Supplier<T> action, Runnable dropWithoutApplying) {
    ArrayDeque<ScheduledFault> queue = pending.get(operation);
    ScheduledFault fault = queue == null ? null : queue.poll();
    if (fault == null || fault.kind() == null) {
      return action.get();
    }
    fired.add(new FiredFault(fired.size() + 1L, operation, fault.kind(), fault.code()));
    switch (fault.kind()) {
      case FAIL_BEFORE:
        throw fault.error();
      case FAIL_AFTER_APPLYING:
        applyForEffectOnly(action);
        throw fault.error();
      case UNKNOWN_OUTCOME_AFTER_APPLYING:
        applyForEffectOnly(action);
        throw unknownOutcome(operation);
      case UNKNOWN_OUTCOME_WITHOUT_APPLYING:
        dropWithoutApplying.run();
        throw unknownOutcome(operation);
    }
    throw new AssertionError("unhandled fault kind " + fault.kind());
  }

  /** The call's result goes to no one: its response is the thing that got lost. */
  private static <T> void applyForEffectOnly(Supplier<T> action) {
    var unused = action.get();
  }

  private static CommitOutcomeUnknownException unknownOutcome(ClusterOperation operation) {
    return new CommitOutcomeUnknownException(
        "Injected fault: the response to "
            + operation
            + " was lost; the commit may or may not"
            + " have been applied",
        null);
  }
}
