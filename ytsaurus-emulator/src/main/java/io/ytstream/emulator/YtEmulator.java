package io.ytstream.emulator;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.ytstream.inmemory.InMemoryCluster;
import java.io.IOException;
import java.io.UncheckedIOException;
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
  private final List<String> hosts = new ArrayList<>();
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

  private void listen() throws IOException {
    InetAddress loopback = InetAddress.getLoopbackAddress();
    SSLContext tls = options.tls().map(TlsKeyStore::serverContext).orElse(null);
    for (int i = 0; i < options.proxyCount(); i++) {
      int port = i == 0 ? options.port() : 0;
      InetSocketAddress address = new InetSocketAddress(loopback, port);
      HttpServer server;
      if (tls == null) {
        server = HttpServer.create(address, 64);
      } else {
        HttpsServer https = HttpsServer.create(address, 64);
        https.setHttpsConfigurator(new HttpsConfigurator(tls));
        server = https;
      }
      servers.add(server);
      hosts.add(loopback.getHostAddress() + ":" + server.getAddress().getPort());
    }
    for (int i = 0; i < servers.size(); i++) {
      HttpServer server = servers.get(i);
      server.createContext(
          "/", new ProxyHandler(i, commands, options.token(), () -> hosts, this::execute));
      server.setExecutor(threads);
      server.start();
    }
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
    return options.scheme() + "://" + hosts.get(0);
  }

  /** Every proxy's URL, as {@code /hosts} lists them (without the scheme there). */
  public List<String> proxyUrls() {
    List<String> urls = new ArrayList<>();
    hosts.forEach(h -> urls.add(options.scheme() + "://" + h));
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
    return "YtEmulator{" + hosts + ", " + options + "}";
  }
}
