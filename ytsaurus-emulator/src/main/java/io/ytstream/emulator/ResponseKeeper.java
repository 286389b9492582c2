package io.ytstream.emulator;

import io.ytstream.core.error.YtException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The master's response keeper for mutating commands ({@code yt/yt/core/rpc/response_keeper.cpp},
 * {@code TryBeginRequest}): the first request with a {@code mutation_id} runs and its answer (or
 * error) is kept; a repeat of a kept id with {@code retry=true} gets the kept answer without
 * running again; a repeat without {@code retry=true} is refused with "Duplicate request is not
 * marked as "retry"". One keeper per cluster, as the master's, so it spans all proxies.
 *
 * <p>Which commands take {@code mutation_id} and {@code retry}: those whose options derive from
 * {@code TMutatingOptions} ({@code yt/yt/client/driver/command-inl.h}, {@code
 * TMutatingCommandBase}; options in {@code yt/yt/client/api/client.h}, {@code
 * transaction_client.h}, {@code transaction.h}). Among the emulator's commands: Cypress {@code
 * create}, {@code remove}, {@code move}, the table commands {@code mount_table}, {@code
 * unmount_table}, {@code remount_table}, {@code reshard_table}, and {@code start_transaction},
 * {@code commit_transaction}, {@code abort_transaction}, and {@code create_queue_producer_session}
 * (its options derive from {@code TMutatingOptions}; the id is kept in the session's {@code
 * system_meta}, not by a keeper: {@code yt/yt/ytlib/api/native/client_dynamic_tables_impl.cpp},
 * {@code DoCreateQueueProducerSession}). Not {@code trim_rows} ({@code TTrimTableOptions} has only
 * a timeout), row writes, {@code write_file} or queue commands: there a {@code mutation_id} is an
 * unrecognized parameter and ignored. The keeper answers repeats of the master commands; tablet
 * transaction commands are answered from the sticky pool first (a finished transaction is forgotten
 * there), so they only have their id checked.
 */
final class ResponseKeeper {

  /** Commands whose options are {@code TMutatingOptions}. */
  static final Set<String> MUTATING =
      Set.of(
          "create",
          "remove",
          "move",
          "mount_table",
          "unmount_table",
          "remount_table",
          "reshard_table",
          "start_transaction",
          "commit_transaction",
          "abort_transaction",
          "create_queue_producer_session");

  /** Master mutations, whose answers the keeper keeps. */
  static final Set<String> KEPT =
      Set.of(
          "create",
          "remove",
          "move",
          "mount_table",
          "unmount_table",
          "remount_table",
          "reshard_table");

  private record Kept(Object result, CommandError error) {}

  private final Map<MutationGuid, Kept> kept = new HashMap<>();

  /**
   * Runs {@code command} under the keeper's rules: checks the id of a mutating command, answers a
   * kept repeat, keeps a first answer.
   */
  Object run(CommandSpec spec, CommandRequest request, Supplier<Object> command) {
    if (!MUTATING.contains(spec.name())) {
      return command.get();
    }
    Optional<MutationGuid> id =
        request.optional("mutation_id").map(n -> MutationGuid.parse(n.asText()));
    boolean retry = request.flag("retry", false);
    if (id.isEmpty() || !KEPT.contains(spec.name())) {
      return command.get();
    }
    synchronized (this) {
      Kept previous = kept.get(id.get());
      if (previous != null) {
        if (!retry) {
          throw CommandError.badRequest("Duplicate request is not marked as \"retry\"");
        }
        if (previous.error() != null) {
          throw previous.error();
        }
        return previous.result();
      }
      try {
        Object result = command.get();
        kept.put(id.get(), new Kept(result, null));
        return result;
      } catch (CommandError e) {
        kept.put(id.get(), new Kept(null, e));
        throw e;
      } catch (YtException e) {
        CommandError error = EmulatorState.toCommandError(e);
        kept.put(id.get(), new Kept(null, error));
        throw error;
      }
    }
  }
}
