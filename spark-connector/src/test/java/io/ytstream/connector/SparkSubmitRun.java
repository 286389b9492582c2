package io.ytstream.connector;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.spark.launcher.JavaModuleOptions;

/**
 * {@code org.apache.spark.deploy.SparkSubmit} in a JVM of its own whose class path is one Spark
 * distribution's jars and nothing else, as {@code bin/spark-submit} starts it (with the JVM flags
 * Spark's launcher adds), with no Spark configuration of the machine's.
 */
final class SparkSubmitRun {

  private SparkSubmitRun() {}

  /** What the run left: its exit code and everything it printed. */
  record Result(int exitCode, String output) {

    /** The value of the job's line {@code job: <key>=<value>}. */
    Optional<String> job(String key) {
      String prefix = "job: " + key + "=";
      return output
          .lines()
          .filter(l -> l.startsWith(prefix))
          .map(l -> l.substring(prefix.length()))
          .findFirst();
    }
  }

  /**
   * Runs {@code spark-submit --master local[2] --conf k=v.. --jars <jars> --class <main> <app>
   * <args>} and waits for it; its output goes to {@code log} too.
   */
  static Result submit(
      SparkDistribution spark,
      Map<String, String> conf,
      List<Path> jars,
      String mainClass,
      Path app,
      List<String> args,
      Path log,
      Duration timeout)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx768m");
    // A short-lived JVM: the first JIT tier alone starts Spark sooner on a small machine.
    command.add("-XX:TieredStopAtLevel=1");
    command.addAll(Arrays.asList(JavaModuleOptions.defaultModuleOptionArray()));
    command.add("-cp");
    command.add(
        spark.jars().stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator)));
    command.add("org.apache.spark.deploy.SparkSubmit");
    command.add("--master");
    command.add("local[2]");
    conf.forEach(
        (key, value) -> {
          command.add("--conf");
          command.add(key + "=" + value);
        });
    command.add("--jars");
    command.add(jars.stream().map(Path::toString).collect(Collectors.joining(",")));
    command.add("--class");
    command.add(mainClass);
    command.add(app.toString());
    command.addAll(args);

    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(log.getParent().toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    // Nothing of the machine's: no spark-defaults.conf, no Hadoop configuration directory.
    builder.environment().remove("SPARK_HOME");
    builder.environment().remove("SPARK_CONF_DIR");
    builder.environment().remove("HADOOP_CONF_DIR");
    builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    Process process = builder.start();
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      throw new AssertionError(
          "spark-submit on Spark "
              + spark.version()
              + " did not end within "
              + timeout
              + "; its output: "
              + log);
    }
    return new Result(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
  }
}
