package io.ytstream.connector;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.launcher.JavaModuleOptions;

/**
 * A Spark standalone cluster on this machine: one {@code Master} and a few {@code Worker}
 * processes, each a JVM of its own whose class path is one Spark distribution's jars, everything
 * bound to 127.0.0.1. Workers start executors (and, in cluster deploy mode, drivers) as their own
 * child JVMs, so the processes of a job are found among the workers' descendants and nowhere else.
 *
 * <p>A worker launches executors from {@code SPARK_HOME}: here a folder with {@code jars/} (links
 * to the distribution's jars) and an empty {@code RELEASE} file, which tells Spark's launcher that
 * the jars are in {@code jars/}; {@code SPARK_SCALA_VERSION} spares it from looking for a build
 * tree.
 */
final class StandaloneCluster implements AutoCloseable {

  static final String LOOPBACK = "127.0.0.1";
  static final String EXECUTOR_MAIN = "org.apache.spark.executor.CoarseGrainedExecutorBackend";
  static final String DRIVER_MAIN = "org.apache.spark.deploy.worker.DriverWrapper";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

  /** The longest a master or worker lives, should nothing else end it. */
  private static final Duration LIFETIME = Duration.ofMinutes(20);

  private final SparkDistribution spark;
  private final Path dir;
  private final Path sparkHome;
  private final int masterPort;
  private final int masterUiPort;
  private final List<Process> daemons = new ArrayList<>();
  private final List<Path> workerDirs = new ArrayList<>();
  private final Thread shutdownHook = new Thread(this::killAll, "standalone-cluster-kill");
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private StandaloneCluster(SparkDistribution spark, Path dir) throws IOException {
    this.spark = spark;
    this.dir = dir;
    this.sparkHome = dir.resolve("spark-home");
    int[] ports = freePorts(2);
    this.masterPort = ports[0];
    this.masterUiPort = ports[1];
  }

  /**
   * Starts a master and {@code workers} workers of {@code cores} cores and {@code memory} each, and
   * returns once the master counts them all alive.
   */
  static StandaloneCluster start(
      SparkDistribution spark, Path dir, int workers, int cores, String memory)
      throws IOException, InterruptedException {
    StandaloneCluster cluster = new StandaloneCluster(spark, dir);
    Runtime.getRuntime().addShutdownHook(cluster.shutdownHook);
    try {
      cluster.layOutSparkHome();
      cluster.startMaster();
      for (int i = 0; i < workers; i++) {
        cluster.startWorker(i, cores, memory);
      }
      cluster.await(
          "the master to count " + workers + " alive workers",
          START_TIMEOUT,
          () -> cluster.status().map(s -> s.path("aliveworkers").asInt() == workers).orElse(false));
      return cluster;
    } catch (IOException | InterruptedException | RuntimeException | Error e) {
      cluster.close();
      throw e;
    }
  }

  /** {@code spark://127.0.0.1:<port>}. */
  String masterUrl() {
    return "spark://" + LOOPBACK + ":" + masterPort;
  }

  Path sparkHome() {
    return sparkHome;
  }

  /** The workers' work directories: each application's executor logs and each driver's. */
  List<Path> workerDirs() {
    return List.copyOf(workerDirs);
  }

  /** The master's {@code /json/} view (workers, applications, drivers), if it answers. */
  Optional<JsonNode> status() {
    try {
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(
                      URI.create("http://" + LOOPBACK + ":" + masterUiPort + "/json/"))
                  .timeout(Duration.ofSeconds(5))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return response.statusCode() == 200
          ? Optional.of(JSON.readTree(response.body()))
          : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /** The state the master gives a driver of cluster deploy mode (RUNNING, FINISHED, ...). */
  Optional<String> driverState(String driverId) {
    return status()
        .flatMap(
            s ->
                Stream.concat(stream(s.path("activedrivers")), stream(s.path("completeddrivers")))
                    .filter(d -> driverId.equals(d.path("id").asText()))
                    .map(d -> d.path("state").asText())
                    .findFirst());
  }

  /**
   * Asks the master to kill a driver of cluster deploy mode, as its web UI's kill link does (a
   * supervised driver killed this way is not started again).
   */
  void killDriver(String driverId) {
    try {
      http.send(
          HttpRequest.newBuilder(
                  URI.create("http://" + LOOPBACK + ":" + masterUiPort + "/driver/kill/"))
              .timeout(Duration.ofSeconds(5))
              .header("Content-Type", "application/x-www-form-urlencoded")
              .POST(HttpRequest.BodyPublishers.ofString("id=" + driverId + "&terminate=true"))
              .build(),
          HttpResponse.BodyHandlers.discarding());
    } catch (IOException e) {
      // The master is gone: so is the driver's supervision.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Ends whatever a job left on the workers: waits up to {@code grace} for its drivers and
   * executors to end, then kills the rest with kill -9.
   */
  void clearWorkers(Duration grace) throws InterruptedException {
    long deadline = System.nanoTime() + grace.toNanos();
    while ((!drivers().isEmpty() || !executors().isEmpty()) && System.nanoTime() < deadline) {
      Thread.sleep(200);
    }
    for (SparkProcess p : drivers()) {
      p.handle().destroyForcibly();
    }
    for (SparkProcess p : executors()) {
      p.handle().destroyForcibly();
    }
  }

  /** Executor JVMs alive on the workers. */
  List<SparkProcess> executors() {
    return processes(EXECUTOR_MAIN);
  }

  /** Driver JVMs of cluster deploy mode alive on the workers. */
  List<SparkProcess> drivers() {
    return processes(DRIVER_MAIN);
  }

  private List<SparkProcess> processes(String mainClass) {
    List<SparkProcess> found = new ArrayList<>();
    for (Process daemon : daemons) {
      daemon
          .descendants()
          .filter(ProcessHandle::isAlive)
          .forEach(
              p -> {
                List<String> args = p.info().arguments().map(Arrays::asList).orElse(List.of());
                if (args.contains(mainClass)) {
                  found.add(new SparkProcess(p, args));
                }
              });
    }
    return found;
  }

  /** Polls {@code condition} every 200 ms until it holds; fails after {@code timeout}. */
  void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + timeout + " waiting for " + what);
      }
      Thread.sleep(200);
    }
  }

  /** Kills every JVM the cluster started (executors and drivers first), each waited for. */
  @Override
  public void close() {
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // The JVM is shutting down: this is the hook.
    }
    killAll();
  }

  private void killAll() {
    List<ProcessHandle> all = new ArrayList<>();
    for (Process daemon : daemons) {
      daemon.descendants().forEach(all::add);
    }
    daemons.forEach(d -> all.add(d.toHandle()));
    for (ProcessHandle p : all) {
      p.destroyForcibly();
    }
    for (ProcessHandle p : all) {
      try {
        p.onExit().get(10, TimeUnit.SECONDS);
      } catch (Exception e) {
        // Reported below if it is still alive.
      }
    }
    List<Long> alive = all.stream().filter(ProcessHandle::isAlive).map(ProcessHandle::pid).toList();
    daemons.clear();
    if (!alive.isEmpty()) {
      throw new IllegalStateException("processes still alive after kill -9: " + alive);
    }
  }

  /** A fresh folder: the Spark home, and the workers' directories of earlier runs removed. */
  private void layOutSparkHome() throws IOException {
    if (Files.exists(dir)) {
      try (Stream<Path> old = Files.walk(dir)) {
        for (Path p : old.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
    Path jars = sparkHome.resolve("jars");
    Files.createDirectories(jars);
    for (Path jar : spark.jars()) {
      Files.createSymbolicLink(jars.resolve(jar.getFileName()), jar);
    }
    Files.createFile(sparkHome.resolve("RELEASE"));
  }

  private void startMaster() throws IOException {
    // No REST submission server: submissions go through the master's RPC port only.
    daemons.add(
        launch(
            "master",
            List.of("-Dspark.master.rest.enabled=false"),
            "org.apache.spark.deploy.master.Master",
            List.of(
                "--host",
                LOOPBACK,
                "--port",
                Integer.toString(masterPort),
                "--webui-port",
                Integer.toString(masterUiPort))));
  }

  private void startWorker(int index, int cores, String memory) throws IOException {
    Path work = dir.resolve("worker-" + index);
    Files.createDirectories(work);
    workerDirs.add(work);
    daemons.add(
        launch(
            "worker-" + index,
            List.of(),
            "org.apache.spark.deploy.worker.Worker",
            List.of(
                "--host",
                LOOPBACK,
                "--port",
                "0",
                "--webui-port",
                Integer.toString(freePort()),
                "--cores",
                Integer.toString(cores),
                "--memory",
                memory,
                "--work-dir",
                work.toString(),
                masterUrl())));
  }

  /**
   * {@code command} under {@code timeout --signal=KILL}, so that it ends by itself within {@code
   * lifetime} even if this JVM dies before it can kill it ({@link #jvm} finds the JVM inside).
   */
  static List<String> bounded(Duration lifetime, List<String> command) {
    Path timeout = Path.of("/usr/bin/timeout");
    if (!Files.isExecutable(timeout)) {
      return command;
    }
    List<String> bounded =
        new ArrayList<>(List.of(timeout.toString(), "--signal=KILL", lifetime.toSeconds() + "s"));
    bounded.addAll(command);
    return bounded;
  }

  /** The JVM that {@code process} runs: itself, or the child of its {@code timeout}. */
  static Optional<ProcessHandle> jvm(Process process) {
    if (process.info().command().map(c -> c.endsWith("/java")).orElse(false)) {
      return Optional.of(process.toHandle());
    }
    return process
        .children()
        .filter(p -> p.info().command().map(c -> c.endsWith("/java")).orElse(false))
        .findFirst();
  }

  private Process launch(String name, List<String> jvmFlags, String mainClass, List<String> args)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(javaBinary());
    command.add("-Xmx256m");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-XX:+UseSerialGC");
    command.addAll(Arrays.asList(JavaModuleOptions.defaultModuleOptionArray()));
    command.addAll(jvmFlags);
    command.add("-cp");
    command.add(classPath(spark));
    command.add(mainClass);
    command.addAll(args);
    ProcessBuilder builder =
        new ProcessBuilder(bounded(LIFETIME, command))
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve(name + ".log").toFile());
    environment(builder.environment(), sparkHome);
    return builder.start();
  }

  /**
   * What every Spark JVM of these tests gets: loopback only, no configuration of the machine's, and
   * for the launchers of executors and drivers the Spark home laid out above.
   */
  static void environment(Map<String, String> env, Path sparkHome) {
    env.remove("SPARK_CONF_DIR");
    env.remove("HADOOP_CONF_DIR");
    env.remove("SPARK_MASTER_HOST");
    env.remove("SPARK_PUBLIC_DNS");
    env.put("SPARK_LOCAL_IP", LOOPBACK);
    env.put("SPARK_LOCAL_HOSTNAME", LOOPBACK);
    env.put("SPARK_HOME", sparkHome.toString());
    env.put("SPARK_SCALA_VERSION", "2.13");
  }

  static String javaBinary() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  static String classPath(SparkDistribution spark) {
    return spark.jars().stream()
        .map(Path::toString)
        .collect(Collectors.joining(File.pathSeparator));
  }

  private static Stream<JsonNode> stream(JsonNode array) {
    List<JsonNode> nodes = new ArrayList<>();
    array.forEach(nodes::add);
    return nodes.stream();
  }

  private static int freePort() throws IOException {
    return freePorts(1)[0];
  }

  /** Distinct free ports: each socket stays open until all are chosen. */
  private static int[] freePorts(int count) throws IOException {
    List<ServerSocket> open = new ArrayList<>();
    try {
      int[] ports = new int[count];
      for (int i = 0; i < count; i++) {
        ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK));
        open.add(socket);
        ports[i] = socket.getLocalPort();
      }
      return ports;
    } finally {
      for (ServerSocket socket : open) {
        socket.close();
      }
    }
  }

  /** A JVM a worker started, with its command line. */
  record SparkProcess(ProcessHandle handle, List<String> arguments) {

    long pid() {
      return handle.pid();
    }

    /** The value after {@code flag} on its command line. */
    Optional<String> argument(String flag) {
      int i = arguments.indexOf(flag);
      return i >= 0 && i + 1 < arguments.size()
          ? Optional.of(arguments.get(i + 1))
          : Optional.empty();
    }

    /** kill -9, and waits until it is gone. */
    void kill() throws Exception {
      handle.destroyForcibly();
      handle.onExit().get(30, TimeUnit.SECONDS);
      if (handle.isAlive()) {
        throw new AssertionError("pid " + pid() + " survived kill -9");
      }
    }
  }
}
