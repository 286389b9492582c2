package io.ytstream.spark;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

/**
 * While open, every log event of Spark ({@code org.apache.spark}, INFO and up) and ytstream ({@code
 * io.ytstream}, DEBUG and up), and whatever else reaches the root logger, is checked for a secret.
 * Spark and ytstream events go only here meanwhile (the test config silences them on the console
 * anyway). Events are not kept, only counted, plus the few that contain the secret.
 */
final class LogCapture implements AutoCloseable {

  private static final String[] LOGGERS = {"org.apache.spark", "io.ytstream"};
  private static final Level[] LEVELS = {Level.INFO, Level.DEBUG};

  private final String secret;
  private final AtomicLong events = new AtomicLong();
  private final List<String> leaks = new ArrayList<>();
  private final LoggerContext context = (LoggerContext) LogManager.getContext(false);
  private final Appender appender = new Appender();
  private final Level[] oldLevels = new Level[LOGGERS.length];
  private final boolean[] oldAdditive = new boolean[LOGGERS.length];

  LogCapture(String secret) {
    this.secret = secret;
    appender.start();
    Configuration config = context.getConfiguration();
    for (int i = 0; i < LOGGERS.length; i++) {
      LoggerConfig logger = own(config, LOGGERS[i]);
      oldLevels[i] = logger.getLevel();
      oldAdditive[i] = logger.isAdditive();
      logger.setLevel(LEVELS[i]);
      logger.setAdditive(false);
      logger.addAppender(appender, null, null);
    }
    config.getRootLogger().addAppender(appender, null, null);
    context.updateLoggers();
  }

  private static LoggerConfig own(Configuration config, String name) {
    LoggerConfig logger = config.getLoggerConfig(name);
    if (!logger.getName().equals(name)) {
      logger = new LoggerConfig(name, config.getRootLogger().getLevel(), true);
      config.addLogger(name, logger);
    }
    return logger;
  }

  long events() {
    return events.get();
  }

  synchronized List<String> leaks() {
    return new ArrayList<>(leaks);
  }

  @Override
  public void close() {
    Configuration config = context.getConfiguration();
    for (int i = 0; i < LOGGERS.length; i++) {
      LoggerConfig logger = config.getLoggerConfig(LOGGERS[i]);
      logger.removeAppender(appender.getName());
      logger.setLevel(oldLevels[i]);
      logger.setAdditive(oldAdditive[i]);
    }
    config.getRootLogger().removeAppender(appender.getName());
    context.updateLoggers();
    appender.stop();
  }

  private final class Appender extends AbstractAppender {

    Appender() {
      super("ytstream-secret-watch", null, null, true, Property.EMPTY_ARRAY);
    }

    @Override
    public void append(LogEvent event) {
      events.incrementAndGet();
      StringBuilder text = new StringBuilder(event.getMessage().getFormattedMessage());
      if (event.getThrown() != null) {
        StringWriter trace = new StringWriter();
        event.getThrown().printStackTrace(new PrintWriter(trace));
        text.append('\n').append(trace);
      }
      if (text.indexOf(secret) >= 0) {
        synchronized (LogCapture.this) {
          if (leaks.size() < 5) {
            leaks.add(event.getLoggerName() + ": " + text.toString().replace(secret, "<TOKEN>"));
          }
        }
      }
    }
  }
}
