package io.ytstream.emulator;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ytstream.inmemory.InMemoryCluster;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLContext;

/**
 * A local YTsaurus: {@link EmulatorOptions#proxyCount()} HTTP proxies on 127.0.0.1 serving a subset
 * of the v4 API over one {@link InMemoryCluster}. Each proxy has its own sticky transaction pool,
 * so a client that does not pin its tablet transactions to one proxy gets 11000 here as it would on
 * a real cluster. With {@link EmulatorOptions#tls} every proxy serves HTTPS instead. Start it with
 * {@link #start}, from the command line ({@link YtEmulatorMain}) or in JUnit 5 tests ({@link
 * YtEmulatorExtension}).
 */
public final class YtEmulator implements AutoCloseable {

  private final EmulatorOptions options;
  private final InMemoryCluster cluster;
  private final EmulatorState state;
  private final Map<String, CommandSpec> commands;
  private final List<Http11Server> servers = new ArrayList<>();
  private final List<String> endpoints = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final Journal journal;
  private final ResponseKeeper keeper = new ResponseKeeper();
  private final StreamFaults streamFaults = new StreamFaults();
  private final ProxyAvailability availability;
  private final ProxyRequestCounts requestCounts = new ProxyRequestCounts();
  private final ProxyRequestCounts refusedCounts = new ProxyRequestCounts();

  private YtEmulator(EmulatorOptions options) {
    this.options = options;
    this.cluster = new InMemoryCluster(options.clusterName(), options.clock());
    this.state = new EmulatorState(cluster, options.clock(), options.rowsPerStore());
    this.commands = CommandRegistry.build(state);
    this.availability = new ProxyAvailability(options.proxyCount(), refusedCounts);
    Journal opened = null;
    if (options.stateDir().isPresent()) {
      replay(Journal.read(options.stateDir().get()));
      opened = Journal.open(options.stateDir().get());
    }
    this.journal = opened;
  }

  /** Starts the proxies; the first listens on {@code options.port()} (0: any free port). */
  public static YtEmulator start(EmulatorOptions options) {
    YtEmulator emulator = new YtEmulator(options);
    try {
      emulator.listen();
    } catch (IOException e) {
      emulator.close();
      throw new UncheckedIOException("cannot start the YTsaurus emulator on " + options, e);
    } catch (RuntimeException e) {
      emulator.close();
      throw e;
    }
    return emulator;
  }

  public static YtEmulator start() {
    return start(EmulatorOptions.defaults());
  }

  /**
   * Binds proxy {@code i} to {@code 127.0.0.(i+1)}, all on one port: a real proxy's {@code /hosts}
   * names hosts without ports ({@code coordinator.cpp}) and clients add the port of the cluster
   * address, so every proxy must answer on that port. Linux routes all of 127.0.0.0/8 to the
   * loopback interface. With port 0 the first proxy picks a free port and the others take the same
   * one; if one of them cannot, the emulator tries another port.
   */
  private void listen() throws IOException {
    SSLContext tls = options.tls().map(TlsKeyStore::serverContext).orElse(null);
    int attempts = options.port() == 0 ? 20 : 1;
    for (int attempt = 1; ; attempt++) {
      try {
        bindAll(tls);
        break;
      } catch (BindException e) {
        servers.forEach(Http11Server::close);
        servers.clear();
        endpoints.clear();
        if (attempt >= attempts) {
          throw bindError(e);
        }
      }
    }
    servers.forEach(Http11Server::start);
  }

  private void bindAll(SSLContext tls) throws IOException {
    int port = options.port();
    for (int i = 0; i < options.proxyCount(); i++) {
      InetAddress address = loopback(i);
      ProxyHandler handler =
          new ProxyHandler(
              i,
              commands,
              options.tokenUsers(),
              endpoints,
              options.showPorts(),
              streamFaults,
              this::execute,
              availability);
      Http11Server server = Http11Server.bind(new InetSocketAddress(address, port), tls, handler);
      servers.add(server);
      port = server.address().getPort();
      endpoints.add(address.getHostAddress() + ":" + port);
    }
  }

  private IOException bindError(BindException e) {
    int failed = servers.size();
    return new IOException(
        "cannot listen on "
            + loopback(failed).getHostAddress()
            + (options.port() == 0 ? "" : ":" + options.port())
            + " for proxy "
            + (failed + 1)
            + " of "
            + options.proxyCount()
            + ": every proxy of an emulator listens on the same port, proxy i on 127.0.0.i, so that"
            + " /hosts can name bare hosts as a real cluster does. Linux routes 127.0.0.0/8 to lo;"
            + " elsewhere add the addresses (macOS: sudo ifconfig lo0 alias 127.0.0.2 up) or run"
            + " one proxy (--proxies 1, EmulatorOptions.withProxyCount(1)); with a fixed --port,"
            + " make sure that port is free on every address",
        e);
  }

  /** {@code 127.0.0.(index+1)}. */
  static InetAddress loopback(int index) {
    try {
      return InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) (index + 1)});
    } catch (java.net.UnknownHostException e) {
      throw new IllegalStateException(e);
    }
  }

  private Object execute(CommandSpec spec, CommandRequest request) {
    requestCounts.record(request.proxyIndex(), spec.name());
    ObjectNode parameters = request.parameters().deepCopy();
    Object result = keeper.run(spec, request, () -> spec.handler().run(request));
    if (journal != null && spec.isVolatile() && !spec.name().equals("ping_transaction")) {
      String tx =
          spec.name().equals("start_transaction")
              ? ((ObjectNode) result).path("transaction_id").asText("")
              : "";
      journal.append(
          new Journal.Entry(
              spec.name(),
              parameters,
              request.body(),
              request.inputFormat().spec(),
              request.proxyIndex(),
              tx));
    }
    return result;
  }

  private void replay(List<Journal.Entry> entries) {
    Map<String, String> transactions = new HashMap<>();
    for (Journal.Entry entry : entries) {
      CommandSpec spec = commands.get(entry.command());
      if (spec == null) {
        continue;
      }
      ObjectNode parameters = entry.parameters().deepCopy();
      if (parameters.hasNonNull("transaction_id")) {
        String old = parameters.get("transaction_id").asText();
        parameters.put("transaction_id", transactions.getOrDefault(old, old));
      }
      CommandRequest request =
          new CommandRequest(
              entry.command(),
              parameters,
              entry.body(),
              WireFormat.fromSpec(entry.inputFormat()),
              WireFormat.json(false),
              Math.min(entry.proxyIndex(), options.proxyCount() - 1),
              // The journal holds only what succeeded; replaying it needs no permission checks.
              InMemoryCluster.ROOT_USER);
      try {
        Object result = spec.handler().run(request);
        if (!entry.resultTx().isEmpty()) {
          transactions.put(entry.resultTx(), ((ObjectNode) result).path("transaction_id").asText());
        }
      } catch (RuntimeException e) {
        // It succeeded once; if it cannot now (an expired transaction), its effect was lost then
        // too.
      }
    }
  }

  /**
   * {@code http://127.0.0.1:<port>} of the first proxy ({@code https://} with TLS): the address to
   * give clients.
   */
  public String url() {
    return options.scheme() + "://" + endpoints.get(0);
  }

  /**
   * Every proxy's URL, {@code <scheme>://127.0.0.<i>:<port>}, all with one port: {@code /hosts}
   * lists their hosts without scheme and port (with {@link EmulatorOptions#showPorts}, with port).
   */
  public List<String> proxyUrls() {
    List<String> urls = new ArrayList<>();
    endpoints.forEach(h -> urls.add(options.scheme() + "://" + h));
    return urls;
  }

  public int port() {
    return servers.get(0).address().getPort();
  }

  /**
   * Arms a failure for the next answer of a streamed {@code command} ({@code pull_queue_consumer},
   * {@code pull_consumer}, {@code select_rows}, {@code lookup_rows}, {@code read_file}): it sends
   * status 200 and the first half of its body, then fails with {@code code} and {@code message} in
   * the HTTP trailers {@code X-YT-Error}, {@code X-YT-Response-Code}, {@code
   * X-YT-Response-Message}, or in the body when the request has {@code
   * dump_error_into_response=true}, as a proxy reports an error after streaming started. Arming
   * twice fails the next two answers. For testing that a client never takes a cut answer for a
   * complete one.
   */
  public void failNextAnswerHalfway(String command, int code, String message) {
    CommandSpec spec = commands.get(command);
    if (spec == null
        || !(spec.outputType().equals("tabular") || spec.outputType().equals("binary"))) {
      throw new IllegalArgumentException(
          "failNextAnswerHalfway needs a command with a streamed (tabular or binary) answer, got "
              + command);
    }
    streamFaults.arm(command, code, message);
  }

  /**
   * Bans proxy {@code proxy} (0-based, as in {@link #proxyUrls}), as an administrator sets {@code
   * //sys/proxies/<p>/@banned}: it answers every command HTTP 503 with code 2100 "This proxy is
   * banned" and {@code Retry-After: 60} ({@code yt/yt/server/http_proxy/context.cpp}, {@code
   * TryCheckAvailability}), and {@code /hosts} leaves it out ({@code coordinator.cpp}, {@code
   * ListProxies}; {@code /hosts/all} shows it with {@code banned=true}). Its sticky transactions
   * stay in its pool but cannot be reached.
   */
  public void banProxy(int proxy) {
    availability.set(proxy, ProxyAvailability.State.BANNED);
  }

  /**
   * Overloads proxy {@code proxy}: it answers every command HTTP 503 with code 108 "There are too
   * many concurrent requests being served at the moment; please try another proxy or try again
   * later" and {@code Retry-After: 60}, as when its concurrency semaphore is full ({@code
   * context.cpp}, {@code TryAcquireConcurrencySemaphore}). {@code /hosts} still lists it.
   */
  public void overloadProxy(int proxy) {
    availability.set(proxy, ProxyAvailability.State.OVERLOADED);
  }

  /** Lifts a ban or an overload of proxy {@code proxy}: it serves commands again. */
  public void restoreProxy(int proxy) {
    availability.set(proxy, ProxyAvailability.State.SERVING);
  }

  /** Commands proxy {@code proxy} refused because it was banned or overloaded. */
  public long refusedRequests(int proxy) {
    return refusedCounts.byCommand(proxy).values().stream().mapToLong(Long::longValue).sum();
  }

  /** How many commands each proxy ran, by command name. */
  public ProxyRequestCounts requestCounts() {
    return requestCounts;
  }

  /** How many commands each proxy refused (banned or overloaded), by command name. */
  public ProxyRequestCounts refusedCounts() {
    return refusedCounts;
  }

  /** The cluster behind the proxies, for test knobs (manual clock, faults, limits). */
  public InMemoryCluster cluster() {
    return cluster;
  }

  public String clusterName() {
    return cluster.name();
  }

  public EmulatorOptions options() {
    return options;
  }

  public Optional<String> token() {
    return options.token();
  }

  @Override
  public void close() {
    servers.forEach(Http11Server::close);
    if (journal != null) {
      journal.close();
    }
  }

  @Override
  public String toString() {
    return "YtEmulator{" + endpoints + ", " + options + "}";
  }
}
