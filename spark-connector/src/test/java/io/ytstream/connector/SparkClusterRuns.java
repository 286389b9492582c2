package io.ytstream.connector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.connector.StandaloneCluster.SparkProcess;
import io.ytstream.connector.job.QueueStreamJob;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.YPath;
import io.ytstream.emulator.EmulatorOptions;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.spark.launcher.JavaModuleOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

/**
 * The connector jar on a Spark standalone cluster: a master and two workers (JVMs of their own,
 * from one Spark distribution's jars, on 127.0.0.1), jobs sent with {@code spark-submit --master
 * spark://.. --jars spark-connector.jar} in client and in cluster deploy mode, executors in JVMs
 * the workers start, and the emulator (in this JVM, on loopback, with a required token) as the
 * YTsaurus cluster. One long-running job per delivery mode and one in Real-time Mode. While each
 * runs, rows keep arriving, one executor JVM is killed with {@code kill -9} (the master starts
 * another) and then the driver: in client mode the spark-submit JVM, sent again on the same
 * checkpoint; in cluster mode the driver JVM on its worker, which {@code --supervise} starts again.
 * Then every row is checked in the output (exactly once, or at least once for at-least-once) and
 * the consumer at the queue's end.
 *
 * <p>One cluster per test class serves each of its jobs in turn, and each job's rows are few. The
 * modes are split between two classes ({@link SparkClusterIT}, {@link SparkClusterKeyedIT}) that
 * Failsafe runs in two forks at once, each with a cluster, an emulator and a folder of its own. A
 * class marked {@link OnSpark} runs its cluster on another Spark line's jars ({@link
 * SparkClusterNextIT}).
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
abstract class SparkClusterRuns {

  private static final String TOKEN = "cluster-" + UUID.randomUUID();
  private static final int PARTITIONS = 2;

  /** Rows fed before the job starts, then before each kill, then at the end. */
  private static final int ROWS_PER_PHASE = 30;

  private static final int PHASES = 4;
  private static final int ROWS = ROWS_PER_PHASE * PHASES;
  private static final Duration PHASE_TIMEOUT = Duration.ofSeconds(150);
  private static final List<Column> COLUMNS =
      List.of(
          new Column("id", "int64", false, false), new Column("payload", "string", false, false));
  private static final List<Column> KEYED =
      List.of(
          new Column("__spyt_streaming_src_tablet_index", "int64", true, true),
          new Column("__spyt_streaming_src_row_index", "int64", true, true),
          new Column("id", "int64", false, false),
          new Column("payload", "string", false, false));

  /** Spark's driver log line for a task started: its TID and executor. */
  private static final Pattern TASK_START =
      Pattern.compile(
          "Starting task \\S+ in stage \\S+ \\(TID (\\d+)\\) \\([^,]+, ?executor (\\d+),");

  /**
   * Spark's driver log lines for a running task lost with its executor: its TID. The scheduler
   * words it one way when the executor's exit counts against the task and another when not.
   */
  private static final Pattern TASK_LOST =
      Pattern.compile(
          "(?:Lost task|task) \\S+ in stage \\S+ \\(TID (\\d+)\\)(?: \\(\\S+ executor \\d+\\):"
              + " ExecutorLostFailure| failed because while it was being computed, its executor"
              + " exited)");

  private static final Pattern DRIVER_ID = Pattern.compile("driver-[0-9]{14}-[0-9]{4}");

  // Set up by each class's @BeforeAll: a fork runs one test class at a time.
  private static YtEmulator emulator;
  private static StandaloneCluster cluster;
  private static SparkDistribution spark;
  private static Path work;
  private static Path jobJar;
  private static final Map<String, String> REPORT = new LinkedHashMap<>();

  private final List<Process> submitted = new ArrayList<>();
  private Job job;

  enum Mode {
    AT_LEAST_ONCE("at-least-once", false, false),
    TRANSACTIONAL("transactional", true, true),
    IDEMPOTENT("idempotent", true, true),
    PRODUCER("producer", false, true),
    REAL_TIME("real-time", true, true);

    final String flag;
    final boolean clusterDeploy;
    final boolean exactlyOnce;

    Mode(String flag, boolean clusterDeploy, boolean exactlyOnce) {
      this.flag = flag;
      this.clusterDeploy = clusterDeploy;
      this.exactlyOnce = exactlyOnce;
    }
  }

  @BeforeAll
  static void startCluster(TestInfo info) throws Exception {
    // A fork runs its classes one after the other: what the last one reported is not this one's.
    REPORT.clear();
    // One proxy: everything on 127.0.0.1, no other loopback address.
    emulator = YtEmulator.start(EmulatorOptions.defaults().withProxyCount(1).withToken(TOKEN));
    String name = info.getTestClass().map(Class::getSimpleName).orElse("cluster");
    work = Path.of(System.getProperty("work.dir", "target/spark-submit")).resolve(name);
    Files.createDirectories(work);
    spark =
        SparkDistribution.fromBuild(
            info.getTestClass()
                .map(c -> c.getAnnotation(OnSpark.class))
                .map(OnSpark::value)
                .orElse("current"));
    jobJar = JobJars.streamJob(work);
    long started = System.nanoTime();
    cluster = StandaloneCluster.start(spark, work.resolve("standalone"), 2, 2, "1536m");
    System.out.printf(
        Locale.ROOT,
        "standalone cluster %s of Spark %s: master and 2 workers up in %.1f s%n",
        cluster.masterUrl(),
        spark.version(),
        (System.nanoTime() - started) / 1e9);
  }

  @AfterAll
  static void stopCluster() {
    try {
      if (cluster != null) {
        cluster.close();
      }
    } finally {
      if (emulator != null) {
        emulator.close();
      }
      REPORT.forEach((mode, line) -> System.out.println(line));
    }
  }

  /** The Spark distribution whose jars this class's cluster runs. */
  static SparkDistribution spark() {
    return spark;
  }

  /**
   * After a job, passed or not: nothing of it may run on into the next one. The job is asked to
   * stop, a supervised driver is killed through the master, and what is left gets kill -9.
   */
  @AfterEach
  void endJob() throws Exception {
    if (job != null) {
      Path stop = work.resolve(job.mode.flag + ".stop");
      if (!Files.exists(stop)) {
        Files.createFile(stop);
      }
      if (job.driverId != null
          && cluster.driverState(job.driverId).map(s -> !s.equals("FINISHED")).orElse(false)) {
        cluster.killDriver(job.driverId);
      }
    }
    for (Process p : submitted) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    cluster.clearWorkers(Duration.ofSeconds(30));
  }

  void run(Mode mode) throws Exception {
    long started = System.nanoTime();
    InMemoryCluster yt = emulator.cluster();
    String root = "//home/" + mode.flag;
    YPath queue = YPath.of(root + "/queue");
    YPath consumer = YPath.of(root + "/consumer");
    YPath output = YPath.of(root + "/output");
    YPath producer = YPath.of(root + "/producer");
    yt.createOrderedTable(queue, COLUMNS, PARTITIONS);
    yt.createConsumer(consumer);
    yt.registerConsumer(queue, consumer, true);
    switch (mode) {
      case IDEMPOTENT, REAL_TIME -> yt.createSortedTable(output, KEYED);
      case PRODUCER -> {
        yt.createOrderedTable(output, COLUMNS, PARTITIONS);
        yt.createQueueProducer(producer);
      }
      default -> yt.createOrderedTable(output, COLUMNS, PARTITIONS);
    }
    Path stopFile = work.resolve(mode.flag + ".stop");
    Files.deleteIfExists(stopFile);
    List<String> jobArgs =
        new ArrayList<>(
            List.of(
                mode.flag,
                queue.toString(),
                consumer.toString(),
                output.toString(),
                "yt://" + root.substring(1) + "/checkpoint",
                stopFile.toString()));
    if (mode == Mode.PRODUCER) {
      jobArgs.add(producer.toString());
    }
    Job job = new Job(mode, jobArgs);
    this.job = job;

    feed(yt, queue, 0);
    job.submit();
    awaitOutput(job, yt, output, ROWS_PER_PHASE);

    // An executor JVM dies with kill -9 while it runs a task over the new rows; the master
    // starts another.
    int tasksBefore = job.taskStarts().size();
    feed(yt, queue, 1);
    cluster.await(
        "a task to start over the new rows",
        PHASE_TIMEOUT,
        () -> job.alive() && job.taskStarts().size() > tasksBefore);
    List<String> starts = job.taskStarts();
    String victimId = starts.get(starts.size() - 1);
    List<SparkProcess> before = cluster.executors();
    assertTrue(before.size() >= 2, "at least two executor JVMs on the workers: " + before);
    SparkProcess victim =
        before.stream()
            .filter(e -> victimId.equals(e.argument("--executor-id").orElse("")))
            .findFirst()
            .orElseThrow(() -> new AssertionError("executor " + victimId + " runs: " + before));
    String application = victim.argument("--app-id").orElseThrow();
    Set<String> idsBefore = new LinkedHashSet<>();
    before.forEach(e -> idsBefore.add(e.argument("--executor-id").orElseThrow()));
    victim.kill();
    assertFalse(victim.handle().isAlive(), "executor " + victimId + " was killed");
    // The master starts a new executor for the application; or, where the lost task failed the
    // query (transactional), the restarted driver's application gets executors of its own.
    cluster.await(
        "an executor to replace executor " + victimId,
        PHASE_TIMEOUT,
        () -> job.alive() && replacement(application, idsBefore).isPresent());
    String replacement = replacement(application, idsBefore).orElseThrow();
    // The kill fell while the executor ran a task (a real-time task runs for the whole batch; a
    // micro-batch task spends the UDF's time on each of its rows): the driver lost it.
    cluster.await(
        "the driver to report a task lost with executor " + victimId,
        Duration.ofSeconds(30),
        () -> job.lostTasks(victimId) >= 1);
    long lostTasks = job.lostTasks(victimId);
    awaitOutput(job, yt, output, 2 * ROWS_PER_PHASE);

    // The driver dies with kill -9, and starts again on the same checkpoint.
    feed(yt, queue, 2);
    job.killDriverAndRestart();
    awaitOutput(job, yt, output, 3 * ROWS_PER_PHASE);

    feed(yt, queue, 3);
    awaitOutput(job, yt, output, ROWS);
    // The consumer follows the committed batches (in Real-time Mode a batch behind the rows
    // written); a stop in the middle of a batch leaves it at the last committed end.
    long consumedRunning = awaitConsumer(yt, queue, consumer);
    Files.createFile(stopFile);
    job.awaitFinished();
    long consumed = awaitConsumer(yt, queue, consumer);
    double seconds = (System.nanoTime() - started) / 1e9;

    Map<Long, Integer> seen = idCounts(yt, output);
    long rowsOut = seen.values().stream().mapToLong(Integer::longValue).sum();
    long lost = 0;
    for (long id = 0; id < ROWS; id++) {
      if (!seen.containsKey(id)) {
        lost++;
      }
    }
    long duplicates = rowsOut - seen.size();
    List<String> applications = job.applications();
    String line =
        String.format(
            Locale.ROOT,
            "%-13s %-7s on Spark %s: rows in %d, out %d (%d distinct), duplicates %d, lost %d; executor %s"
                + " killed (pid %d) with %d running task(s) lost, replaced by executor %s; driver killed (pid %d) and %s;"
                + " applications (drivers) %d; consumer %d/%d running, %d after the stop; %.1f s",
            mode.flag,
            mode.clusterDeploy ? "cluster" : "client",
            spark.version(),
            ROWS,
            rowsOut,
            seen.size(),
            duplicates,
            lost,
            victimId,
            victim.pid(),
            lostTasks,
            replacement,
            job.killedDriverPid,
            mode.clusterDeploy ? "restarted by --supervise" : "the job sent again",
            applications.size(),
            consumedRunning,
            ROWS,
            consumed,
            seconds);
    System.out.println(line);
    REPORT.put(mode.flag, line);

    assertEquals(0, lost, mode.flag + ": no row lost; " + line);
    assertEquals(ROWS, seen.size(), mode.flag + ": only rows of the queue; " + line);
    if (mode.exactlyOnce) {
      assertEquals(0, duplicates, mode.flag + ": every row exactly once; " + line);
    }
    assertEquals(ROWS, consumedRunning, mode.flag + ": the consumer at the queue's end");
    assertEquals(ROWS, consumed, mode.flag + ": the consumer still at the queue's end");
    // Two drivers, each its own application: the first, and the one after the kill. A third
    // would be a restart nobody asked for, except in transactional mode after a lost task.
    boolean failedByLostTask = mode == Mode.TRANSACTIONAL && lostTasks > 0;
    if (failedByLostTask) {
      assertTrue(
          job.logsContain("was not committed: task attempt"),
          "the batch that lost a task failed, naming why");
    }
    assertEquals(
        failedByLostTask ? 3 : 2,
        applications.size(),
        "the killed driver was replaced by one new driver (a new application): " + applications);
    assertEquals(
        List.of(spark.version()),
        job.sparkVersions(),
        "every driver ran the cluster's Spark, " + spark.version());
    job.assertNoToken();
    cluster.await(
        "the job's executors to end", Duration.ofSeconds(60), () -> cluster.executors().isEmpty());
  }

  /** A new executor of {@code application}, or any executor of another application. */
  private static Optional<String> replacement(String application, Set<String> before) {
    for (SparkProcess e : cluster.executors()) {
      String app = e.argument("--app-id").orElse("");
      String id = e.argument("--executor-id").orElse("");
      if (!app.equals(application)) {
        return Optional.of(id + " of " + app);
      }
      if (!before.contains(id)) {
        return Optional.of(id);
      }
    }
    return Optional.empty();
  }

  /** Appends phase {@code phase}'s rows, spread over the partitions. */
  private static void feed(InMemoryCluster yt, YPath queue, int phase) {
    List<Row> rows = new ArrayList<>();
    for (long id = (long) phase * ROWS_PER_PHASE; id < (phase + 1L) * ROWS_PER_PHASE; id++) {
      rows.add(Row.of("$tablet_index", id % PARTITIONS, "id", id, "payload", "p" + id));
    }
    yt.outputTables().append(queue, rows);
  }

  /** Waits until every id below {@code rows} is in the output, failing if the job died. */
  private static void awaitOutput(Job job, InMemoryCluster yt, YPath output, int rows)
      throws InterruptedException {
    cluster.await(
        rows + " rows in " + output + " (" + job.mode.flag + ")",
        PHASE_TIMEOUT,
        () -> {
          job.checkAlive();
          Map<Long, Integer> seen = idCounts(yt, output);
          for (long id = 0; id < rows; id++) {
            if (!seen.containsKey(id)) {
              return false;
            }
          }
          return true;
        });
  }

  private static long awaitConsumer(InMemoryCluster yt, YPath queue, YPath consumer)
      throws InterruptedException {
    ConsumerId c = new ConsumerId(yt.name(), consumer);
    QueueId q = new QueueId(yt.name(), queue);
    try {
      cluster.await(
          "the consumer at the queue's end",
          Duration.ofSeconds(30),
          () -> yt.consumerOffsets().read(c, q).total() == ROWS);
    } catch (AssertionError e) {
      // Reported by the caller's assertion.
    }
    return yt.consumerOffsets().read(c, q).total();
  }

  private static Map<Long, Integer> idCounts(InMemoryCluster yt, YPath output) {
    Map<Long, Integer> seen = new TreeMap<>();
    for (Row r : yt.outputTables().readAll(output)) {
      seen.merge((Long) r.get("id"), 1, Integer::sum);
    }
    return seen;
  }

  /** One job's driver, in client or cluster deploy mode, across its restarts. */
  private final class Job {
    final Mode mode;
    final List<String> args;
    final List<Path> logs = new ArrayList<>();
    Process clientDriver;
    String driverId;
    long killedDriverPid;

    Job(Mode mode, List<String> args) {
      this.mode = mode;
      this.args = args;
    }

    void submit() throws Exception {
      Path log = work.resolve(mode.flag + "-submit-" + logs.size() + ".log");
      logs.add(log);
      ProcessBuilder builder =
          new ProcessBuilder(StandaloneCluster.bounded(Duration.ofMinutes(10), command()))
              .directory(work.toFile())
              .redirectErrorStream(true)
              .redirectOutput(log.toFile());
      StandaloneCluster.environment(builder.environment(), cluster.sparkHome());
      Process process = builder.start();
      submitted.add(process);
      if (!mode.clusterDeploy) {
        clientDriver = process;
        return;
      }
      // Cluster deploy mode: spark-submit hands the driver to the master and ends.
      if (!process.waitFor(90, TimeUnit.SECONDS)) {
        throw new AssertionError("spark-submit --deploy-mode cluster did not end; see " + log);
      }
      String out = Files.readString(log, StandardCharsets.UTF_8);
      assertEquals(0, process.exitValue(), "spark-submit failed: " + out);
      Matcher m = DRIVER_ID.matcher(out);
      assertTrue(m.find(), "spark-submit names the driver it submitted: " + out);
      driverId = m.group();
      cluster.await(
          "driver " + driverId + " to run on a worker", PHASE_TIMEOUT, () -> driver() != null);
    }

    private List<String> command() {
      List<String> command = new ArrayList<>();
      command.add(StandaloneCluster.javaBinary());
      command.add("-Xmx512m");
      command.add("-XX:TieredStopAtLevel=1");
      command.add("-XX:+UseSerialGC");
      command.addAll(Arrays.asList(JavaModuleOptions.defaultModuleOptionArray()));
      command.add("-cp");
      command.add(StandaloneCluster.classPath(spark));
      command.add("org.apache.spark.deploy.SparkSubmit");
      command.addAll(List.of("--master", cluster.masterUrl()));
      if (mode.clusterDeploy) {
        command.addAll(
            List.of(
                "--deploy-mode",
                "cluster",
                "--supervise",
                "--driver-memory",
                "512m",
                "--driver-cores",
                "1"));
      } else {
        command.addAll(List.of("--deploy-mode", "client"));
      }
      Map<String, String> conf = new LinkedHashMap<>();
      conf.put("spark.hadoop.yt.proxy", emulator.url());
      conf.put("spark.hadoop.yt.token", TOKEN);
      conf.put("spark.driver.host", StandaloneCluster.LOOPBACK);
      conf.put("spark.driver.bindAddress", StandaloneCluster.LOOPBACK);
      conf.put("spark.ui.enabled", "false");
      conf.put("spark.executor.memory", "512m");
      conf.put("spark.executor.cores", "1");
      // Executors of one core each, at least two, so that the job goes on while one is replaced.
      // Real-time Mode holds a task slot per queue partition for the whole batch and checks the
      // slots at every batch: it gets one executor more than it has partitions, so that losing
      // one leaves enough.
      conf.put(
          "spark.cores.max",
          Integer.toString(mode == Mode.REAL_TIME ? PARTITIONS + 1 : PARTITIONS));
      conf.put("spark.executor.extraJavaOptions", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC");
      conf.put("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC");
      conf.put("spark.local.dir", work.resolve("local").toString());
      conf.put("spark.sql.shuffle.partitions", "2");
      conf.forEach(
          (key, value) -> {
            command.add("--conf");
            command.add(key + "=" + value);
          });
      command.addAll(List.of("--jars", connectorJar().toString()));
      command.addAll(List.of("--class", QueueStreamJob.class.getName()));
      command.add(jobJar.toString());
      command.addAll(args);
      return command;
    }

    /** The driver JVM: spark-submit's own in client mode, else the one on a worker. */
    ProcessHandle driver() {
      if (!mode.clusterDeploy) {
        return clientDriver.isAlive()
            ? StandaloneCluster.jvm(clientDriver).filter(ProcessHandle::isAlive).orElse(null)
            : null;
      }
      return cluster.drivers().stream()
          .filter(d -> d.arguments().stream().anyMatch(a -> a.contains(driverId)))
          .map(SparkProcess::handle)
          .findFirst()
          .orElse(null);
    }

    boolean alive() {
      checkAlive();
      return true;
    }

    /** Fails when a client-mode driver ended by itself, or the master gave up a cluster one. */
    void checkAlive() {
      if (!mode.clusterDeploy && !clientDriver.isAlive()) {
        throw new AssertionError(
            mode.flag + ": the driver ended with " + clientDriver.exitValue() + "; " + tail());
      }
      if (mode.clusterDeploy) {
        String state = cluster.driverState(driverId).orElse("?");
        if (List.of("FINISHED", "KILLED", "FAILED", "ERROR").contains(state)) {
          throw new AssertionError(mode.flag + ": driver " + driverId + " is " + state);
        }
      }
    }

    void killDriverAndRestart() throws Exception {
      ProcessHandle driver = driver();
      assertTrue(driver != null && driver.isAlive(), "a driver JVM runs");
      killedDriverPid = driver.pid();
      driver.destroyForcibly();
      driver.onExit().get(30, TimeUnit.SECONDS);
      assertFalse(driver.isAlive(), "the driver JVM was killed");
      if (!mode.clusterDeploy) {
        assertTrue(clientDriver.waitFor(30, TimeUnit.SECONDS), "spark-submit ended");
        assertEquals(137, clientDriver.exitValue(), "spark-submit died of SIGKILL");
        submit();
        return;
      }
      cluster.await(
          "--supervise to start driver " + driverId + " again",
          PHASE_TIMEOUT,
          () -> {
            ProcessHandle next = driver();
            return next != null && next.pid() != killedDriverPid;
          });
      assertNotEquals(killedDriverPid, driver().pid());
    }

    void awaitFinished() throws Exception {
      if (!mode.clusterDeploy) {
        assertTrue(
            clientDriver.waitFor(PHASE_TIMEOUT.toSeconds(), TimeUnit.SECONDS),
            "the job stopped when asked to; " + tail());
        assertEquals(0, clientDriver.exitValue(), "the job ended cleanly; " + tail());
        return;
      }
      cluster.await(
          "driver " + driverId + " to finish",
          PHASE_TIMEOUT,
          () -> {
            String state = cluster.driverState(driverId).orElse("?");
            if (state.equals("FAILED") || state.equals("ERROR") || state.equals("KILLED")) {
              throw new AssertionError(driverId + " is " + state + "; " + tail());
            }
            return state.equals("FINISHED");
          });
    }

    /** The executor of every task the job's drivers started, in order. */
    List<String> taskStarts() {
      return matches(TASK_START).stream().map(m -> m.group(2)).toList();
    }

    /**
     * How many tasks started on executor {@code id} the drivers lost with it. Read before the
     * driver is killed: a new driver numbers its tasks and executors from 0 again.
     */
    long lostTasks(String id) {
      Set<String> onExecutor = new HashSet<>();
      for (MatchResult m : matches(TASK_START)) {
        if (m.group(2).equals(id)) {
          onExecutor.add(m.group(1));
        }
      }
      return matches(TASK_LOST).stream().map(m -> m.group(1)).filter(onExecutor::contains).count();
    }

    private List<MatchResult> matches(Pattern pattern) {
      List<MatchResult> found = new ArrayList<>();
      try {
        for (Path log : driverLogs()) {
          if (!Files.isRegularFile(log)) {
            continue;
          }
          Matcher m = pattern.matcher(Files.readString(log, StandardCharsets.UTF_8));
          while (m.find()) {
            found.add(m.toMatchResult());
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return found;
    }

    boolean logsContain(String text) throws IOException {
      for (Path log : driverLogs()) {
        if (Files.readString(log, StandardCharsets.UTF_8).contains(text)) {
          return true;
        }
      }
      return false;
    }

    /** Every application the job's drivers registered, in order. */
    List<String> applications() throws IOException {
      return jobValues("application");
    }

    /** The Spark versions the job's drivers reported, each once. */
    List<String> sparkVersions() throws IOException {
      return jobValues("spark.version");
    }

    /** The distinct values of the drivers' {@code job: <key>=<value>} lines, in order. */
    private List<String> jobValues(String key) throws IOException {
      String prefix = "job: " + key + "=";
      Set<String> values = new LinkedHashSet<>();
      for (Path log : driverLogs()) {
        for (String l : Files.readAllLines(log, StandardCharsets.UTF_8)) {
          if (l.startsWith(prefix)) {
            values.add(l.substring(prefix.length()));
          }
        }
      }
      return List.copyOf(values);
    }

    /** spark-submit's output, and in cluster mode the driver's stdout and stderr on a worker. */
    List<Path> driverLogs() throws IOException {
      List<Path> all = new ArrayList<>(logs);
      if (mode.clusterDeploy) {
        for (Path dir : cluster.workerDirs()) {
          Path d = dir.resolve(driverId);
          for (String name : List.of("stdout", "stderr")) {
            if (Files.isRegularFile(d.resolve(name))) {
              all.add(d.resolve(name));
            }
          }
        }
      }
      return all;
    }

    /** The token is in no log: spark-submit's, the drivers', the executors', the daemons'. */
    void assertNoToken() throws IOException {
      List<Path> files = new ArrayList<>(driverLogs());
      try (Stream<Path> walk = Files.walk(cluster.workerDirs().get(0).getParent())) {
        walk.filter(Files::isRegularFile)
            .filter(
                p -> {
                  String n = p.getFileName().toString();
                  return n.equals("stdout") || n.equals("stderr") || n.endsWith(".log");
                })
            .forEach(files::add);
      }
      for (Path f : files) {
        assertFalse(
            Files.readString(f, StandardCharsets.ISO_8859_1).contains(TOKEN),
            "the token is not in " + f);
      }
    }

    private String tail() {
      try {
        StringBuilder out = new StringBuilder();
        for (Path log : driverLogs()) {
          List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
          out.append("\n--- ").append(log).append('\n');
          lines
              .subList(Math.max(0, lines.size() - 40), lines.size())
              .forEach(l -> out.append(l).append('\n'));
        }
        return out.toString();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private static Path connectorJar() {
    Path jar = Path.of(System.getProperty("connector.jar", "missing"));
    assertTrue(Files.isRegularFile(jar), "package builds the connector jar: " + jar);
    return jar;
  }
}
