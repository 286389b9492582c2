package io.ytstream.emulator;

import java.util.LinkedHashMap;
import java.util.Map;

/** The commands the emulator serves, with their types as in {@code GET /api/v4}. */
final class CommandRegistry {

  private CommandRegistry() {}

  static Map<String, CommandSpec> build(EmulatorState state) {
    CypressCommands cypress = new CypressCommands(state);
    QueueAndTableCommands tables = new QueueAndTableCommands(state);
    QueueProducerCommands producers = new QueueProducerCommands(state);
    StaticTableCommands staticTables = new StaticTableCommands(state);
    Map<String, CommandSpec> specs = new LinkedHashMap<>();
    // name, input type, output type, volatile, heavy
    add(specs, "get", "null", "structured", false, false, cypress::get);
    add(specs, "list", "null", "structured", false, false, cypress::list);
    add(specs, "exists", "null", "structured", false, false, cypress::exists);
    add(specs, "set", "structured", "structured", true, false, cypress::set);
    add(specs, "lock", "null", "structured", true, false, cypress::lock);
    add(specs, "create", "null", "structured", true, false, cypress::create);
    add(specs, "remove", "null", "structured", true, false, cypress::remove);
    add(specs, "move", "null", "structured", true, false, cypress::move);
    add(specs, "write_file", "binary", "structured", true, true, cypress::writeFile);
    add(specs, "read_file", "null", "binary", false, true, cypress::readFile);
    add(specs, "mount_table", "null", "structured", true, false, cypress::mountTable);
    add(specs, "unmount_table", "null", "structured", true, false, cypress::unmountTable);
    add(specs, "remount_table", "null", "structured", true, false, cypress::remountTable);
    add(specs, "reshard_table", "null", "structured", true, false, cypress::reshardTable);
    add(specs, "get_tablet_infos", "null", "structured", true, false, tables::getTabletInfos);
    add(specs, "trim_rows", "null", "structured", true, true, tables::trimRows);
    add(specs, "pull_queue", "null", "tabular", false, true, tables::pullQueue);
    add(specs, "pull_queue_consumer", "null", "tabular", false, true, tables::pullQueueConsumer);
    add(specs, "pull_consumer", "null", "tabular", false, true, tables::pullQueueConsumer);
    add(
        specs,
        "advance_queue_consumer",
        "null",
        "structured",
        true,
        false,
        tables::advanceQueueConsumer);
    add(specs, "advance_consumer", "null", "structured", true, false, tables::advanceQueueConsumer);
    add(
        specs,
        "register_queue_consumer",
        "null",
        "structured",
        true,
        false,
        tables::registerQueueConsumer);
    add(
        specs,
        "unregister_queue_consumer",
        "null",
        "structured",
        true,
        false,
        tables::unregisterQueueConsumer);
    add(
        specs,
        "list_queue_consumer_registrations",
        "null",
        "structured",
        false,
        false,
        tables::listQueueConsumerRegistrations);
    add(
        specs,
        "create_queue_producer_session",
        "null",
        "structured",
        true,
        false,
        producers::createQueueProducerSession);
    add(
        specs,
        "remove_queue_producer_session",
        "null",
        "structured",
        true,
        false,
        producers::removeQueueProducerSession);
    add(
        specs,
        "push_queue_producer",
        // As driver.cpp registers it, though the command reads rows: send them in a PUT body.
        "null",
        "structured",
        true,
        false,
        producers::pushQueueProducer);
    add(specs, "insert_rows", "tabular", "structured", true, true, tables::insertRows);
    add(specs, "delete_rows", "tabular", "structured", true, true, tables::deleteRows);
    add(specs, "lookup_rows", "tabular", "tabular", false, true, tables::lookupRows);
    add(specs, "write_table", "tabular", "structured", true, true, staticTables::writeTable);
    add(specs, "read_table", "null", "tabular", false, true, staticTables::readTable);
    add(specs, "select_rows", "null", "tabular", false, true, tables::selectRows);
    add(specs, "start_transaction", "null", "structured", true, false, tables::startTransaction);
    add(specs, "ping_transaction", "null", "structured", true, false, tables::pingTransaction);
    add(specs, "commit_transaction", "null", "structured", true, false, tables::commitTransaction);
    add(specs, "abort_transaction", "null", "structured", true, false, tables::abortTransaction);
    return specs;
  }

  private static void add(
      Map<String, CommandSpec> specs,
      String name,
      String input,
      String output,
      boolean isVolatile,
      boolean heavy,
      CommandSpec.Handler handler) {
    specs.put(name, new CommandSpec(name, input, output, isVolatile, heavy, handler));
  }
}
