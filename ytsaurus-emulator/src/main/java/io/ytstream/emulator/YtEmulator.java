package io.ytstream.emulator;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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

  static {
    // The JDK server writes headers and body separately; without TCP_NODELAY every response waits
    // for the client's delayed ACK (~40 ms). Read once, when the first server is created.
    if (System.getProperty("sun.net.httpserver.nodelay") == null) {
      System.setProperty("sun.net.httpserver.nodelay", "true");
    }
  }

  private final EmulatorOptions options;
  private final InMemoryCluster cluster;
  private final EmulatorState state;
  private final Map<String, CommandSpec> commands;
  private final List<HttpServer> servers = new ArrayList<>();
  private final List<String> endpoints = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final ExecutorService threads;
  private final Journal journal;
  private final ResponseKeeper keeper = new ResponseKeeper();

  private YtEmulator(EmulatorOptions options) {
    this.options = options;
    this.cluster = new InMemoryCluster(options.clusterName(), options.clock());
    this.state = new EmulatorState(cluster, options.clock());
    this.commands = CommandRegistry.build(state);
    this.threads =
        Executors.newFixedThreadPool(
            4,
            runnable -> {
              Thread thread = new Thread(runnable, "yt-emulator-proxy");
              thread.setDaemon(true);
              return thread;
            });
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
        servers.forEach(s -> s.stop(0));
        servers.clear();
        endpoints.clear();
        if (attempt >= attempts) {
          throw bindError(e);
        }
      }
    }
    for (int i = 0; i < servers.size(); i++) {
      HttpServer server = servers.get(i);
      server.createContext(
          "/",
          new ProxyHandler(
              i, commands, options.token(), endpoints, options.showPorts(), this::execute));
      server.setExecutor(threads);
      server.start();
    }
  }

  private void bindAll(SSLContext tls) throws IOException {
    int port = options.port();
    for (int i = 0; i < options.proxyCount(); i++) {
      InetAddress address = loopback(i);
      HttpServer server = bind(new InetSocketAddress(address, port), tls);
      servers.add(server);
      port = server.getAddress().getPort();
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

  private static HttpServer bind(InetSocketAddress address, SSLContext tls) throws IOException {
    if (tls == null) {
      return HttpServer.create(address, 64);
    }
    HttpsServer https = HttpsServer.create(address, 64);
    https.setHttpsConfigurator(new HttpsConfigurator(tls));
    return https;
  }

  private Object execute(CommandSpec spec, CommandRequest request) {
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
              Math.min(entry.proxyIndex(), options.proxyCount() - 1));
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
    return servers.get(0).getAddress().getPort();
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
    servers.forEach(s -> s.stop(0));
    threads.shutdownNow();
    if (journal != null) {
      journal.close();
    }
  }

  @Override
  public String toString() {
    return "YtEmulator{" + endpoints + ", " + options + "}";
  }
}
