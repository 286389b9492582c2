"""Spark Structured Streaming over YTsaurus queues, from PySpark.

The package carries ytstream's connector jar (the ``yt`` source and sink, the ``yt://``
checkpoint file system) and the YTsaurus emulator's jar, and configures Spark sessions for them:

>>> import ytstream
>>> with ytstream.spark_session(proxy="http://localhost:8000") as spark:  # doctest: +SKIP
...     spark.readStream.format("yt").option("consumer_path", "//home/c").load("//home/q")

:mod:`ytstream.writers` starts Real-time Mode queries with ytstream's JVM writers, and
:mod:`ytstream.testing` is a pytest plugin that runs the emulator for tests
(``pip install ytstream[testing]``).
"""

from ytstream._config import MODES, configure, find_token
from ytstream._jars import emulator_jar_path, jar_path
from ytstream._session import spark_session

__all__ = [
    "MODES",
    "configure",
    "emulator_jar_path",
    "find_token",
    "jar_path",
    "spark_session",
]

__version__ = "0.1.0.dev0"
