package io.ytstream.ytsaurus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An interrupted thread (how a stopping Spark query cancels its driver thread and its tasks) gets
 * an {@link UncheckedIOException} around an {@link InterruptedIOException} from any request, with
 * its interrupt flag still set and nothing retried: the form Spark takes for a clean stop ({@code
 * StreamExecution.isInterruptionException}), where a transport error would fail the query.
 */
class YtHttpClientInterruptTest {

  private final ScriptedProxy proxy = new ScriptedProxy();

  @TempDir Path home;

  @AfterEach
  void stop() {
    proxy.close();
  }

  /** Three attempts, and a backoff long enough that only an interrupt can cut it short. */
  private YtHttpClient client() {
    return new YtHttpClient(
        YtsaurusClientConfig.fromSettings(
            proxy.url(),
            Map.of(
                "yt.cluster.name", "scripted",
                "yt.http.maxAttempts", "3",
                "yt.http.backoffMs", "20000",
                "yt.http.discoverHeavyProxies", "false"),
            name -> null,
            home));
  }

  private ObjectNode params() {
    ObjectNode params = client().params();
    params.put("path", "//a");
    return params;
  }

  @Test
  void aReadInterruptedMidRequestIsAnInterruptionAndIsNotRetried() throws Exception {
    proxy.then(ScriptedProxy.slow(3000, ScriptedProxy.ok("{}")));
    Outcome outcome = interruptAfterRequests(1, Command.GET, Repeat.READ);
    outcome.assertInterruption();
    assertEquals(1, proxy.received().size(), "not tried again");
  }

  @Test
  void aCommitInterruptedMidRequestIsAnInterruptionNotAnUnknownOutcome() throws Exception {
    proxy.then(ScriptedProxy.slow(3000, ScriptedProxy.ok("{}")));
    Outcome outcome = interruptAfterRequests(1, Command.COMMIT_TRANSACTION, Repeat.COMMIT);
    outcome.assertInterruption();
    assertEquals(1, proxy.received().size(), "not tried again");
  }

  @Test
  void anInterruptDuringTheBackoffEndsTheRetries() throws Exception {
    proxy.then(ScriptedProxy.status(503, "")).then(ScriptedProxy.ok("{}"));
    Outcome outcome = interruptAfterRequests(1, Command.GET, Repeat.READ);
    outcome.assertInterruption();
    assertEquals(1, proxy.received().size(), "the 503 was not followed by another attempt");
  }

  @Test
  void aThreadAlreadyInterruptedFailsAtOnceAndStaysInterrupted() {
    proxy.then(ScriptedProxy.ok("{}"));
    YtHttpClient client = client();
    ObjectNode params = params();
    Thread.currentThread().interrupt();
    RuntimeException error = null;
    try {
      client.structured(URI.create(proxy.url()), Command.GET, params, Repeat.READ);
    } catch (RuntimeException e) {
      error = e;
    }
    boolean flag = Thread.interrupted();
    new Outcome(error, flag, 0).assertInterruption();
    assertEquals(0, proxy.received().size(), "nothing was sent");
  }

  @Test
  void anInterruptedThreadSendsNothingOnAKeptAliveConnectionEither() {
    proxy.then(ScriptedProxy.ok("{}")).then(ScriptedProxy.ok("{}"));
    YtHttpClient client = client();
    URI address = URI.create(proxy.url());
    client.structured(address, Command.GET, params(), Repeat.READ);
    Thread.currentThread().interrupt();
    RuntimeException error = null;
    try {
      client.structured(address, Command.GET, params(), Repeat.READ);
    } catch (RuntimeException e) {
      error = e;
    }
    boolean flag = Thread.interrupted();
    new Outcome(error, flag, 0).assertInterruption();
    assertEquals(1, proxy.received().size(), "only the request before the interrupt was sent");
  }

  /** Runs one request on a new thread and interrupts it once the proxy got {@code requests}. */
  private Outcome interruptAfterRequests(int requests, Command command, Repeat repeat)
      throws InterruptedException {
    YtHttpClient client = client();
    ObjectNode params = params();
    AtomicReference<RuntimeException> error = new AtomicReference<>();
    AtomicBoolean flag = new AtomicBoolean();
    Thread caller =
        new Thread(
            () -> {
              try {
                client.structured(URI.create(proxy.url()), command, params, repeat);
              } catch (RuntimeException e) {
                error.set(e);
              }
              flag.set(Thread.currentThread().isInterrupted());
            });
    caller.start();
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (proxy.received().size() < requests && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    // The request is in flight (or its answer is back and the client is backing off).
    Thread.sleep(100);
    long interrupted = System.nanoTime();
    caller.interrupt();
    caller.join(10_000);
    return new Outcome(error.get(), flag.get(), (System.nanoTime() - interrupted) / 1_000_000);
  }

  private record Outcome(RuntimeException error, boolean flagSet, long millisAfterInterrupt) {

    void assertInterruption() {
      assertNotNull(error, "the request failed");
      UncheckedIOException unchecked =
          assertInstanceOf(UncheckedIOException.class, error, "not a transport error");
      assertInstanceOf(InterruptedIOException.class, unchecked.getCause());
      assertTrue(flagSet, "the thread's interrupt flag is still set");
      assertTrue(millisAfterInterrupt < 2000, "ended " + millisAfterInterrupt + " ms after");
    }
  }
}
