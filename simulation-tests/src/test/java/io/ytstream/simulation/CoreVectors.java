package io.ytstream.simulation;

import io.ytstream.core.commit.CommitErrorClassifier;
import io.ytstream.core.commit.CommitLagRule;
import io.ytstream.core.commit.ConsumerAdvance;
import io.ytstream.core.delivery.CheckpointRecovery;
import io.ytstream.core.delivery.DeliveryMode;
import io.ytstream.core.delivery.OutOfTransactionBatch;
import io.ytstream.core.delivery.RecoveryVerdict;
import io.ytstream.core.delivery.TransactionalRecovery;
import io.ytstream.core.error.CommitOutcomeUnknownException;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.plan.BatchPlan;
import io.ytstream.core.plan.BatchPlanner;
import io.ytstream.core.plan.DataLoss;
import io.ytstream.core.plan.DataLossException;
import io.ytstream.core.plan.DataLossPolicy;
import io.ytstream.core.plan.PlanLimits;
import io.ytstream.core.plan.QueueBounds;
import io.ytstream.core.plan.StartOffsetResolver;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The language-neutral form of core-domain's decisions: each vector kind maps a JSON input to the
 * JSON decision core makes. The exporter stores {@code {input, expected}} pairs; the replay test
 * (and any other runtime) evaluates every input and compares. See {@code vectors/README.md}.
 */
public final class CoreVectors {

  /** The vector kinds, one file each. */
  public static final List<String> KINDS =
      List.of(
          "batch_planner",
          "start_offsets",
          "commit_lag",
          "recovery_transactional",
          "recovery_out_of_transaction",
          "recovery_checkpoint",
          "commit_outcome");

  private CoreVectors() {}

  /** Evaluates one input of {@code kind} with core-domain. */
  public static Map<String, Object> evaluate(String kind, Map<String, Object> input) {
    return switch (kind) {
      case "batch_planner" -> batchPlanner(input);
      case "start_offsets" -> startOffsets(input);
      case "commit_lag" -> commitLag(input);
      case "recovery_transactional" -> recoveryTransactional(input);
      case "recovery_out_of_transaction" -> recoveryOutOfTransaction(input);
      case "recovery_checkpoint" -> recoveryCheckpoint(input);
      case "commit_outcome" -> commitOutcome(input);
      default -> throw new IllegalArgumentException("unknown vector kind " + kind);
    };
  }

  private static Map<String, Object> batchPlanner(Map<String, Object> in) {
    Map<String, Object> out = new LinkedHashMap<>();
    try {
      BatchPlan plan =
          BatchPlanner.plan(offsets(in.get("start")), bounds(in.get("bounds")), limits(in));
      out.put("start", offsetsJson(plan.start()));
      out.put("end", offsetsJson(plan.end()));
      out.put("ranges", rangesJson(plan.ranges()));
      out.put("losses", lossesJson(plan.losses()));
      out.put("has_data", plan.hasData());
      out.put("commit_ranges", rangesJson(plan.commitRanges()));
      out.put("moves_offsets", plan.movesOffsets());
    } catch (DataLossException e) {
      out.put("error", "DATA_LOSS");
      out.put("losses", lossesJson(e.losses()));
    } catch (IllegalStateException e) {
      out.put("error", "OFFSET_BEYOND_END");
    }
    return out;
  }

  private static Map<String, Object> startOffsets(Map<String, Object> in) {
    Object checkpoint = in.get("checkpoint");
    StreamOffsets start =
        StartOffsetResolver.resolve(
            checkpoint == null ? Optional.empty() : Optional.of(offsets(checkpoint)),
            offsets(in.get("consumer")),
            bounds(in.get("bounds")));
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("start", offsetsJson(start));
    return out;
  }

  private static Map<String, Object> commitLag(Map<String, Object> in) {
    StreamOffsets durable = offsets(in.get("durable_end"));
    StreamOffsets consumer = offsets(in.get("consumer"));
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("advances", advancesJson(CommitLagRule.catchUp(durable, consumer)));
    List<Object> ahead = new ArrayList<>();
    for (PartitionId p : CommitLagRule.partitionsAhead(durable, consumer)) {
      ahead.add(partitionJson(p));
    }
    out.put("partitions_ahead", ahead);
    return out;
  }

  private static Map<String, Object> recoveryTransactional(Map<String, Object> in) {
    Map<String, Object> out = new LinkedHashMap<>();
    try {
      RecoveryVerdict v =
          TransactionalRecovery.decide(ranges(in.get("ranges")), offsets(in.get("consumer")));
      out.put("decision", v.decision().name());
    } catch (IllegalArgumentException e) {
      out.put("error", "INVALID_RANGES");
    }
    return out;
  }

  private static Map<String, Object> recoveryOutOfTransaction(Map<String, Object> in) {
    DeliveryMode mode = DeliveryMode.valueOf((String) in.get("mode"));
    OutOfTransactionBatch batch = new OutOfTransactionBatch(mode, 0, offsets(in.get("end")));
    batch.writing();
    batch.sinkCommitted();
    batch.logCommitted();
    List<ConsumerAdvance> advances = batch.consumerRead(offsets(in.get("consumer")));
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("state", batch.state().name());
    out.put("advances", advancesJson(advances));
    return out;
  }

  private static Map<String, Object> recoveryCheckpoint(Map<String, Object> in) {
    Map<String, Object> out = new LinkedHashMap<>();
    try {
      CheckpointRecovery.Decision d =
          CheckpointRecovery.decide(
              optLong(in.get("latest_offsets")), optLong(in.get("latest_commit")));
      out.put("action", d.action().name());
      out.put("batch", d.batch());
    } catch (IllegalStateException e) {
      out.put("error", "DAMAGED_CHECKPOINT");
    }
    return out;
  }

  private static Map<String, Object> commitOutcome(Map<String, Object> in) {
    Object error = in.get("error");
    Throwable t;
    if (error == null) {
      t = null;
    } else {
      @SuppressWarnings("unchecked")
      Map<String, Object> e = (Map<String, Object>) error;
      String type = (String) e.get("type");
      t =
          switch (type) {
            case "yt" -> {
              List<Integer> inner = new ArrayList<>();
              for (Object code : (List<?>) e.get("inner_codes")) {
                inner.add(((Long) code).intValue());
              }
              yield new YtException(((Long) e.get("code")).intValue(), "vector", inner, null);
            }
            case "outcome_unknown" -> new CommitOutcomeUnknownException("vector", null);
            case "transport_timeout" ->
                new java.io.UncheckedIOException(new SocketTimeoutException());
            case "transport_io" -> new java.io.UncheckedIOException(new IOException("reset"));
            default -> throw new IllegalArgumentException("unknown error type " + type);
          };
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("outcome", CommitErrorClassifier.classify(t).name());
    return out;
  }

  // ---- conversions -------------------------------------------------------------------------

  static StreamOffsets offsets(Object json) {
    TreeMap<PartitionId, Long> map = new TreeMap<>();
    ((Map<?, ?>) json)
        .forEach(
            (queue, parts) -> {
              QueueId q = QueueId.parseKey((String) queue);
              ((Map<?, ?>) parts)
                  .forEach(
                      (index, offset) ->
                          map.put(
                              new PartitionId(q, Integer.parseInt((String) index)), (Long) offset));
            });
    return StreamOffsets.of(map);
  }

  static Map<String, Object> offsetsJson(StreamOffsets offsets) {
    Map<String, Object> out = new LinkedHashMap<>();
    offsets
        .asMap()
        .forEach(
            (p, offset) -> {
              @SuppressWarnings("unchecked")
              Map<String, Object> q =
                  (Map<String, Object>)
                      out.computeIfAbsent(
                          p.queue().key(), k -> new LinkedHashMap<String, Object>());
              q.put(Integer.toString(p.index()), offset);
            });
    return out;
  }

  static QueueBounds bounds(Object json) {
    Map<QueueId, List<PartitionBounds>> byQueue = new TreeMap<>();
    ((Map<?, ?>) json)
        .forEach(
            (queue, parts) -> {
              List<PartitionBounds> list = new ArrayList<>();
              for (Object o : (List<?>) parts) {
                Map<?, ?> b = (Map<?, ?>) o;
                list.add(
                    new PartitionBounds(
                        list.size(),
                        (Long) b.get("trimmed_row_count"),
                        (Long) b.get("total_row_count")));
              }
              byQueue.put(QueueId.parseKey((String) queue), list);
            });
    return QueueBounds.of(byQueue);
  }

  static Map<String, Object> boundsJson(Map<QueueId, List<PartitionBounds>> bounds) {
    Map<String, Object> out = new LinkedHashMap<>();
    bounds.forEach(
        (q, parts) -> {
          List<Object> list = new ArrayList<>();
          for (PartitionBounds b : parts) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("trimmed_row_count", b.trimmedRowCount());
            m.put("total_row_count", b.totalRowCount());
            list.add(m);
          }
          out.put(q.key(), list);
        });
    return out;
  }

  private static PlanLimits limits(Map<String, Object> in) {
    return PlanLimits.of(
        (Long) in.get("max_rows_per_partition"),
        DataLossPolicy.valueOf((String) in.get("data_loss_policy")));
  }

  static List<OffsetRange> ranges(Object json) {
    List<OffsetRange> list = new ArrayList<>();
    for (Object o : (List<?>) json) {
      Map<?, ?> r = (Map<?, ?>) o;
      list.add(
          new OffsetRange(
              new PartitionId(
                  QueueId.parseKey((String) r.get("queue")),
                  ((Long) r.get("partition")).intValue()),
              (Long) r.get("lower"),
              (Long) r.get("upper")));
    }
    return list;
  }

  static List<Object> rangesJson(List<OffsetRange> ranges) {
    List<Object> list = new ArrayList<>();
    for (OffsetRange r : ranges) {
      Map<String, Object> m = partitionJson(r.partition());
      m.put("lower", r.lower());
      m.put("upper", r.upper());
      list.add(m);
    }
    return list;
  }

  private static Map<String, Object> partitionJson(PartitionId p) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("queue", p.queue().key());
    m.put("partition", (long) p.index());
    return m;
  }

  private static List<Object> lossesJson(List<DataLoss> losses) {
    List<Object> list = new ArrayList<>();
    for (DataLoss l : losses) {
      Map<String, Object> m = partitionJson(l.partition());
      m.put("requested_offset", l.requestedOffset());
      m.put("first_available_row", l.firstAvailableRow());
      list.add(m);
    }
    return list;
  }

  private static List<Object> advancesJson(List<ConsumerAdvance> advances) {
    List<Object> list = new ArrayList<>();
    for (ConsumerAdvance a : advances) {
      Map<String, Object> m = partitionJson(a.partition());
      m.put("old_offset", a.oldOffset());
      m.put("new_offset", a.newOffset());
      list.add(m);
    }
    return list;
  }

  private static OptionalLong optLong(Object o) {
    return o == null ? OptionalLong.empty() : OptionalLong.of((Long) o);
  }
}
