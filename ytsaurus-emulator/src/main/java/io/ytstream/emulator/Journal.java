package io.ytstream.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * {@code --state-dir}: every mutating request that succeeded is appended to {@code journal.jsonl}
 * (command, parameters, body, proxy; the transaction id a {@code start_transaction} returned), one
 * JSON object per line, flushed at once. At start the journal is replayed in order, with old
 * transaction ids mapped to the new ones, which rebuilds the same tables, rows, offsets, trims and
 * files. Simple rather than compact: the file grows with the traffic.
 */
final class Journal implements AutoCloseable {

  static final String FILE_NAME = "journal.jsonl";

  /** One journaled request. */
  record Entry(
      String command,
      ObjectNode parameters,
      byte[] body,
      String inputFormat,
      int proxyIndex,
      String resultTx) {}

  private final BufferedWriter writer;

  private Journal(BufferedWriter writer) {
    this.writer = writer;
  }

  static Journal open(Path directory) {
    try {
      Files.createDirectories(directory);
      return new Journal(
          Files.newBufferedWriter(
              directory.resolve(FILE_NAME),
              StandardCharsets.UTF_8,
              StandardOpenOption.CREATE,
              StandardOpenOption.APPEND));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the emulator journal in " + directory, e);
    }
  }

  static List<Entry> read(Path directory) {
    Path file = directory.resolve(FILE_NAME);
    List<Entry> entries = new ArrayList<>();
    if (!Files.exists(file)) {
      return entries;
    }
    try {
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        if (line.isBlank()) {
          continue;
        }
        JsonNode node = WireFormat.JSON.readTree(line);
        entries.add(
            new Entry(
                node.path("command").asText(),
                (ObjectNode) node.path("parameters"),
                Base64.getDecoder().decode(node.path("body").asText("")),
                node.has("input_format")
                    ? node.path("input_format").asText()
                    : WireFormat.json(node.path("input_encode_utf8").asBoolean(false)).spec(),
                node.path("proxy").asInt(0),
                node.path("result_tx").asText("")));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the emulator journal " + file, e);
    }
    return entries;
  }

  synchronized void append(Entry entry) {
    ObjectNode node = WireFormat.JSON.createObjectNode();
    node.put("command", entry.command());
    node.set("parameters", entry.parameters());
    node.put("body", Base64.getEncoder().encodeToString(entry.body()));
    node.put("input_format", entry.inputFormat());
    node.put("proxy", entry.proxyIndex());
    node.put("result_tx", entry.resultTx());
    try {
      writer.write(node.toString());
      writer.newLine();
      writer.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot append to the emulator journal", e);
    }
  }

  @Override
  public synchronized void close() {
    try {
      writer.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
