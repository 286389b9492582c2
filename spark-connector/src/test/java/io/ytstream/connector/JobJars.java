package io.ytstream.connector;

import io.ytstream.connector.clash.RefusingYtSource;
import io.ytstream.connector.job.QueueStreamJob;
import io.ytstream.connector.job.QueueToTableJob;
import io.ytstream.connector.job.TransformWithStateJob;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

/**
 * Small jars made from this module's compiled test classes: the user's job, and another connector
 * that registers {@code yt} too. Each holds the classes named (and for a connector its service
 * entry), nothing of the test itself.
 */
final class JobJars {

  private JobJars() {}

  /** The job's jar: {@link QueueToTableJob} alone. */
  static Path job(Path dir) throws IOException {
    Path jar = dir.resolve("queue-to-table-job.jar");
    write(jar, List.of(QueueToTableJob.class), null);
    return jar;
  }

  /** The long-running job's jar: {@link QueueStreamJob} alone. */
  static Path streamJob(Path dir) throws IOException {
    Path jar = dir.resolve("queue-stream-job.jar");
    write(jar, List.of(QueueStreamJob.class), null);
    return jar;
  }

  /** The stateful Real-time job's jar: {@link TransformWithStateJob} and its processor. */
  static Path transformWithStateJob(Path dir) throws IOException {
    Path jar = dir.resolve("transform-with-state-job.jar");
    write(
        jar, List.of(TransformWithStateJob.class, TransformWithStateJob.RunningCount.class), null);
    return jar;
  }

  /** A jar with {@code source} registered as a {@code DataSourceRegister}. */
  static Path registering(Class<? extends RefusingYtSource> source, Path dir) throws IOException {
    Path jar = dir.resolve(source.getSimpleName() + ".jar");
    write(jar, List.of(RefusingYtSource.class, source), source);
    return jar;
  }

  private static void write(Path jar, List<Class<?>> classes, Class<?> registered)
      throws IOException {
    Files.createDirectories(jar.getParent());
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      for (Class<?> c : classes) {
        String entry = c.getName().replace('.', '/') + ".class";
        out.putNextEntry(new JarEntry(entry));
        Files.copy(classesRoot(c).resolve(entry), out);
        out.closeEntry();
      }
      if (registered != null) {
        out.putNextEntry(
            new JarEntry("META-INF/services/org.apache.spark.sql.sources.DataSourceRegister"));
        out.write((registered.getName() + "\n").getBytes(StandardCharsets.UTF_8));
        out.closeEntry();
      }
    }
  }

  private static Path classesRoot(Class<?> c) {
    try {
      return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
