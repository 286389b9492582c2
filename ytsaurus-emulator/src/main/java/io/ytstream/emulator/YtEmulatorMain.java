package io.ytstream.emulator;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;

/**
 * {@code java -cp ... io.ytstream.emulator.YtEmulatorMain [--port 8000] [--proxies 1] [--token T]
 * [--user TOKEN=NAME ...] [--state-dir DIR] [--cluster-name NAME] [--show-ports B]
 * [--max-rows-per-pull N] [--tls KEYSTORE --tls-password P | --tls-self-signed DIR]}: runs the
 * emulator until interrupted. Lines on standard input ban, overload or restore a proxy while it
 * runs ({@link ProxyConsole}).
 *
 * <p>The command line starts what a local cluster of the official tools runs ({@code
 * yt/python/yt/environment/default_config.py}): one HTTP proxy whose {@code /hosts} lists {@code
 * host:port} ({@code coordinator.show_ports}), so the official client and {@code yt} command line,
 * which add no port to a {@code /hosts} entry, reach it on the port it listens on.
 */
public final class YtEmulatorMain {

  /** What the command line asks for; {@code selfSigned} is set by {@code --tls-self-signed}. */
  record Command(
      EmulatorOptions options,
      Optional<SelfSignedCertificate> selfSigned,
      OptionalInt maxRowsPerPull) {}

  private YtEmulatorMain() {}

  public static void main(String[] args) throws InterruptedException {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    Command command;
    try {
      command = parseCommand(args);
    } catch (IllegalArgumentException e) {
      out.println("error: " + e.getMessage());
      out.println(usage());
      System.exit(2);
      return;
    }
    EmulatorOptions options = command.options();
    YtEmulator emulator = YtEmulator.start(options);
    command.maxRowsPerPull().ifPresent(emulator.cluster()::setMaxRowsPerPull);
    ProxyConsole console = new ProxyConsole(emulator, out);
    console.start(System.in);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  emulator.close();
                  stopped.countDown();
                }));
    out.println(
        "YTsaurus emulator (cluster "
            + emulator.clusterName()
            + ") listening on "
            + emulator.proxyUrls()
            + (options.tokenUsers().isEmpty() ? ", no token required" : ", token required")
            + (options.users().isEmpty()
                ? ""
                : ", users " + new java.util.TreeSet<>(options.users().values()))
            + options.stateDir().map(d -> ", state in " + d).orElse("")
            + options.tls().map(t -> ", TLS with " + t.path()).orElse(""));
    command
        .selfSigned()
        .ifPresent(
            c ->
                out.println(
                    "self-signed certificate: "
                        + c.certificatePem()
                        + " (trust it with yt.http.caCertificates="
                        + c.certificatePem()
                        + ")"));
    out.println(ProxyConsole.HELP);
    stopped.await();
  }

  static String usage() {
    return "usage: YtEmulatorMain [--port N (default 8000; 0 = any)] [--proxies N (default 1)]"
        + " [--token TOKEN (acts as root)] [--user TOKEN=NAME (repeatable)] [--state-dir DIR] [--cluster-name NAME] [--show-ports true|false (default true)]"
        + " [--max-rows-per-pull N] [--rows-per-store N (default 10000)] [--tls KEYSTORE.p12 --tls-password PASSWORD | --tls-self-signed DIR]";
  }

  static EmulatorOptions parse(String[] args) {
    return parseCommand(args).options();
  }

  static Command parseCommand(String[] args) {
    Optional<SelfSignedCertificate> selfSigned = Optional.empty();
    OptionalInt maxRowsPerPull = OptionalInt.empty();
    EmulatorOptions options =
        EmulatorOptions.defaults().withPort(8000).withProxyCount(1).withShowPorts(true);
    Path tlsKeyStore = null;
    String tlsPassword = null;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (arg.equals("--help") || arg.equals("-h")) {
        throw new IllegalArgumentException("help requested");
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException(arg + " needs a value");
      }
      String value = args[++i];
      switch (arg) {
        case "--port" -> options = options.withPort(parseInt(arg, value));
        case "--proxies" -> options = options.withProxyCount(parseInt(arg, value));
        case "--token" -> options = options.withToken(value);
        case "--user" -> {
          int equals = value.lastIndexOf('=');
          if (equals <= 0 || equals == value.length() - 1) {
            throw new IllegalArgumentException(
                "--user " + redacted(value) + ": give TOKEN=NAME, e.g. --user alice-token=alice");
          }
          options = options.withUser(value.substring(0, equals), value.substring(equals + 1));
        }
        case "--state-dir" -> options = options.withStateDir(Path.of(value));
        case "--cluster-name" -> options = options.withClusterName(value);
        case "--show-ports" -> options = options.withShowPorts(parseBoolean(arg, value));
        case "--rows-per-store" -> options = options.withRowsPerStore(parseInt(arg, value));
        case "--max-rows-per-pull" -> maxRowsPerPull = OptionalInt.of(parseInt(arg, value));
        case "--tls" -> tlsKeyStore = Path.of(value);
        case "--tls-password" -> tlsPassword = value;
        case "--tls-self-signed" -> {
          selfSigned = Optional.of(SelfSignedCertificate.create(Path.of(value)));
          options = options.withTls(selfSigned.get().serverKeyStore());
        }
        default -> throw new IllegalArgumentException("unknown option " + arg);
      }
    }
    if (tlsKeyStore != null) {
      if (selfSigned.isPresent()) {
        throw new IllegalArgumentException("give --tls or --tls-self-signed, not both");
      }
      if (tlsPassword == null) {
        throw new IllegalArgumentException(
            "--tls " + tlsKeyStore + " needs --tls-password (the key store's password)");
      }
      options = options.withTls(new TlsKeyStore(tlsKeyStore, tlsPassword));
    } else if (tlsPassword != null) {
      throw new IllegalArgumentException("--tls-password is given without --tls KEYSTORE");
    }
    return new Command(options, selfSigned, maxRowsPerPull);
  }

  private static boolean parseBoolean(String option, String value) {
    if (value.equals("true") || value.equals("false")) {
      return Boolean.parseBoolean(value);
    }
    throw new IllegalArgumentException(option + " takes true or false, got " + value);
  }

  private static int parseInt(String option, String value) {
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " takes a number, got " + value, e);
    }
  }

  /** A {@code --user} value for an error message: the name, never the token. */
  private static String redacted(String value) {
    int equals = value.lastIndexOf('=');
    return equals < 0 ? "<token>" : "<token>" + value.substring(equals);
  }
}
