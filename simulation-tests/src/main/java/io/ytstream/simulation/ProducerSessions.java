package io.ytstream.simulation;

import io.ytstream.application.offsets.LoggedOffsets;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.Row;
import io.ytstream.simulation.check.NonmonotonicSequence;
import io.ytstream.simulation.check.UserMetaMatchesOutput;
import io.ytstream.simulation.check.Violations;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * Producer mode's sessions of {@link Workload#PRODUCER}, read from the cluster directly when the
 * producer table was written, for the checkers {@link NonmonotonicSequence} and {@link
 * UserMetaMatchesOutput}.
 */
final class ProducerSessions {

  private final Workload w;
  private final SimCluster cluster;
  private final Violations out;
  private final NonmonotonicSequence sequences = new NonmonotonicSequence();
  private long stamp = Long.MIN_VALUE;
  private List<Row> sessions = List.of();

  ProducerSessions(Workload w, SimCluster cluster, Violations out) {
    this.w = w;
    this.cluster = cluster;
    this.out = out;
  }

  /** Reads the sessions when the producer table was written since; true when anything changed. */
  boolean refresh() {
    long now = cluster.producerStamp(Workload.PRODUCER);
    if (now == stamp) {
      return false;
    }
    stamp = now;
    sessions = cluster.producerSessions(Workload.PRODUCER);
    sequences.sessions(out, sessions);
    return true;
  }

  /** The sessions' user_meta against the checkpoint and the output ({@code ledger}). */
  void checkUserMeta(OutputLedger ledger) {
    UserMetaMatchesOutput.check(out, sessions, w.partitions(), this::loggedEnd, ledger::newestRow);
  }

  /** The yt source's line of Spark's offsets/N: version, Spark's metadata, then the source. */
  private Optional<StreamOffsets> loggedEnd(long batch) {
    YPath log = Workload.CHECKPOINT.child("offsets").child(Long.toString(batch));
    if (cluster.ports().checkpoints().status(log).isEmpty()) {
      return Optional.empty();
    }
    String text = new String(cluster.ports().checkpoints().readFile(log), StandardCharsets.UTF_8);
    String[] lines = text.split("\n");
    return lines.length < 3
        ? Optional.empty()
        : Optional.of(LoggedOffsets.read(lines[2]).offsets());
  }
}
