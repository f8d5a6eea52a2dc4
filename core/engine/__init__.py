"""Asking models at scale, the same way for every job: one HTTP client (``http_client``:
pooling, proxies, retries, rate limits), OpenAI-compatible endpoints and their chat client
(``chat``), the request engine that runs units of work through worker threads and a writer
(``workers``), the answer and score caches in SQLite (``cache``), and measured throughput with
time left (``throughput``). Uses ``runtime``'s model catalogue only; knows neither survey nor
HERB."""
