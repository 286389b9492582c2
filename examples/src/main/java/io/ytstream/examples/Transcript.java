package io.ytstream.examples;

import io.ytstream.examples.DemoOptions.DeliveryMode;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The demo's output, written to the console and, line for line, to a file: the figures of a run
 * (progress, kills, the verification table, throughput) are read from that file, never copied into
 * a README where they would go stale. The file is {@code streaming-demo-<mode>.txt} in the folder
 * the system property {@link #DIR_PROPERTY} names ({@code examples/target} when run through the
 * module's exec plugin); without the property only the console gets it.
 */
final class Transcript implements AutoCloseable {

  /** The folder of the transcript file. */
  static final String DIR_PROPERTY = "ytstream.demo.dir";

  private final PrintStream out;
  private final OutputStream file;
  private final Path path;

  private Transcript(PrintStream out, OutputStream file, Path path) {
    this.out = out;
    this.file = file;
    this.path = path;
  }

  /** The file a run of {@code mode} writes in {@code dir}. */
  static Path file(Path dir, DeliveryMode mode) {
    return dir.resolve("streaming-demo-" + mode.flag() + ".txt");
  }

  /** Writes to {@code console} and to {@link #file} in {@code dir}, replacing an older file. */
  static Transcript open(PrintStream console, Path dir, DeliveryMode mode) throws IOException {
    Files.createDirectories(dir);
    Path path = file(dir, mode);
    OutputStream file = Files.newOutputStream(path);
    OutputStream both =
        new OutputStream() {
          @Override
          public void write(int b) throws IOException {
            console.write(b);
            file.write(b);
          }

          @Override
          public void write(byte[] b, int off, int len) throws IOException {
            console.write(b, off, len);
            file.write(b, off, len);
          }

          @Override
          public void flush() throws IOException {
            console.flush();
            file.flush();
          }
        };
    return new Transcript(new PrintStream(both, true, StandardCharsets.UTF_8), file, path);
  }

  /** Where the demo prints. */
  PrintStream out() {
    return out;
  }

  Path path() {
    return path;
  }

  /** Flushes and closes the file; the console stays open. */
  @Override
  public void close() throws IOException {
    out.flush();
    file.close();
  }
}
