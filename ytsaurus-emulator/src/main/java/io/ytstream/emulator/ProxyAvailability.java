package io.ytstream.emulator;

import com.sun.net.httpserver.Headers;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Whether each proxy serves commands: a test (or the console) marks one banned or overloaded while
 * clients run, and lifts it again. A refused command gets what {@code
 * yt/yt/server/http_proxy/context.cpp} answers: HTTP 503 ({@code DispatchUnavailable}) with {@code
 * Retry-After: 60} and the error in {@code X-YT-Error} and the JSON body ({@code ReplyError}).
 */
final class ProxyAvailability {

  /** What a proxy does with a command. */
  enum State {
    SERVING,
    /**
     * {@code TryCheckAvailability}: the proxy's {@code //sys/proxies/<p>/@banned} is set; 2100
     * ({@code NApi::NRpcProxy::EErrorCode::ProxyBanned}).
     */
    BANNED,
    /**
     * {@code TryAcquireConcurrencySemaphore}: the per-user/command concurrency semaphore is full;
     * 108 ({@code NRpc::EErrorCode::RequestQueueSizeLimitExceeded}).
     */
    OVERLOADED
  }

  static final int PROXY_BANNED = 2100;
  static final int REQUEST_QUEUE_SIZE_LIMIT_EXCEEDED = 108;

  private final AtomicReferenceArray<State> states;
  private final ProxyRequestCounts refused;

  /** {@code refused} counts the commands refused, by proxy and name. */
  ProxyAvailability(int proxies, ProxyRequestCounts refused) {
    this.states = new AtomicReferenceArray<>(proxies);
    this.refused = refused;
    for (int i = 0; i < proxies; i++) {
      states.set(i, State.SERVING);
    }
  }

  void set(int proxy, State state) {
    if (proxy < 0 || proxy >= states.length()) {
      throw new IllegalArgumentException(
          "no proxy " + proxy + ": the emulator runs proxies 0.." + (states.length() - 1));
    }
    states.set(proxy, state);
  }

  State state(int proxy) {
    return states.get(proxy);
  }

  boolean banned(int proxy) {
    return states.get(proxy) == State.BANNED;
  }

  /**
   * Refuses the command when {@code proxy} is banned or overloaded: sets {@code Retry-After} on
   * {@code response} ("probably useless, but we keep it for compatibility", {@code context.cpp})
   * and throws the error the proxy answers with. Called after authentication and the command's
   * lookup, as {@code TContext::TryPrepare} orders its checks.
   */
  void admit(int proxy, String command, Headers response) {
    State state = states.get(proxy);
    if (state == State.SERVING) {
      return;
    }
    refused.record(proxy, command);
    response.set("Retry-After", "60");
    if (state == State.BANNED) {
      throw new CommandError(503, PROXY_BANNED, "This proxy is banned", List.of());
    }
    throw new CommandError(
        503,
        REQUEST_QUEUE_SIZE_LIMIT_EXCEEDED,
        "There are too many concurrent requests being served at the moment; please try another"
            + " proxy or try again later",
        List.of());
  }
}
