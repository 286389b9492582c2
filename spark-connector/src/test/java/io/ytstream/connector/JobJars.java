package io.ytstream.connector;

import io.ytstream.connector.clash.AnotherYtSource;
import io.ytstream.connector.job.QueueToTableJob;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * Small jars made from this module's compiled test classes: the user's job, and another connector
 * that registers {@code yt} too. Each holds one package of classes (and for the other connector its
 * service entry), nothing of the test itself.
 */
final class JobJars {

  private JobJars() {}

  /** The job's jar: {@link QueueToTableJob}'s package. */
  static Path job(Path dir) throws IOException {
    return jarOf(QueueToTableJob.class, dir.resolve("queue-to-table-job.jar"), null);
  }

  /** {@link AnotherYtSource} with its {@code DataSourceRegister} entry. */
  static Path anotherYtSource(Path dir) throws IOException {
    return jarOf(
        AnotherYtSource.class, dir.resolve("another-yt-source.jar"), AnotherYtSource.class);
  }

  private static Path jarOf(Class<?> anchor, Path jar, Class<?> registered) throws IOException {
    Path classes = classesRoot(anchor);
    String packageDir = anchor.getPackageName().replace('.', '/');
    List<Path> files;
    try (Stream<Path> listing = Files.list(classes.resolve(packageDir))) {
      files = listing.filter(p -> p.toString().endsWith(".class")).sorted().toList();
    }
    Files.createDirectories(jar.getParent());
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      for (Path file : files) {
        out.putNextEntry(new JarEntry(packageDir + "/" + file.getFileName()));
        Files.copy(file, out);
        out.closeEntry();
      }
      if (registered != null) {
        out.putNextEntry(
            new JarEntry("META-INF/services/org.apache.spark.sql.sources.DataSourceRegister"));
        write(out, registered.getName() + "\n");
        out.closeEntry();
      }
    }
    return jar;
  }

  private static void write(OutputStream out, String text) throws IOException {
    out.write(text.getBytes(StandardCharsets.UTF_8));
  }

  private static Path classesRoot(Class<?> anchor) {
    try {
      return Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
