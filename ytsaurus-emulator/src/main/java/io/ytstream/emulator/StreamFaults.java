package io.ytstream.emulator;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Failures armed for streamed answers (tabular and binary output, such as {@code
 * pull_queue_consumer}, {@code select_rows}, {@code read_file}): the next answer of the command
 * sends status 200, the first half of its body, then the error, in trailers or, with {@code
 * dump_error_into_response=true}, in the body, as a proxy does when a heavy command fails after its
 * body started ({@code yt/yt/server/http_proxy/context.cpp}, {@code Finalize}).
 */
final class StreamFaults {

  private final Map<String, Deque<CommandError>> armed = new ConcurrentHashMap<>();

  void arm(String command, int code, String message) {
    Deque<CommandError> queue = armed.computeIfAbsent(command, c -> new ArrayDeque<>());
    synchronized (queue) {
      queue.add(new CommandError(200, code, message, List.of()));
    }
  }

  Optional<CommandError> take(String command) {
    Deque<CommandError> queue = armed.get(command);
    if (queue == null) {
      return Optional.empty();
    }
    synchronized (queue) {
      return Optional.ofNullable(queue.poll());
    }
  }
}
