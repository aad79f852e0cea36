// A pool of child processes for background jobs (an import's check…): each process runs one job after
// the other (job-child.ts), and waits in the pool between jobs, so that starting a job forks nothing.
// A process of its own, not a worker thread of the server's: V8's garbage collector helps every isolate
// of a process from one pool of threads at the process's priority (a worker's collections took turns of
// up to 4 ms with the event loop on 2 cores: `perf sched`), and a thread at SCHED_IDLE shares the
// server's locks (the allocator's arenas, message ports): preempted while holding one, it left the event
// loop asleep for 20-41 ms. A process shares neither, and all of its threads, collector included, run at
// SCHED_IDLE (job-child.ts).
import { type ChildProcess, fork } from 'node:child_process';
import type { JobMessage, JobRequestMessage } from './protocol';

export interface ProcessPoolOptions {
  /** The module the processes run (it calls `serveJobs`, job-child.ts). */
  entry: URL;
  /** Node's flags for the processes (heap limits…); `--expose-gc` is always added. */
  execArgv?: readonly string[];
  /** Processes kept waiting for a job at most; one that was stopped, crashed or exited is never kept. */
  keepWaiting: number;
}

/** A process of the pool, taken for one job. */
export interface JobProcess<Request, Result> {
  send(message: JobRequestMessage<Request>): void;
  /** Writes the job's input to the process's standard input; `written` once the pipe has it all. */
  writeInput(bytes: Uint8Array, written: () => void): void;
  onMessage(listener: (message: JobMessage<Result>) => void): void;
  /** The process ended or could not be started; `why` is one line. */
  onEnd(listener: (why: string) => void): void;
  /** Ends the process (SIGKILL); resolves when it has ended. */
  end(): Promise<void>;
  /** Its job has ended cleanly (it sent its outcome): the process waits for the next job, or ends. */
  release(): void;
  pid: number | undefined;
}

interface PooledProcess {
  child: ChildProcess;
  exited: Promise<void>;
  alive: boolean;
}

/** A waiting process neither keeps the server's event loop alive (tests, the CLI) nor is kept by it. */
function hold({ child }: PooledProcess, held: boolean): void {
  const handles = [child, child.channel, child.stdin] as (
    | { ref?(): void; unref?(): void }
    | null
    | undefined
  )[];
  for (const handle of handles) held ? handle?.ref?.() : handle?.unref?.();
}

export class ProcessPool<Request, Result> {
  /**
   * Processes waiting for a job: `warm` starts one ahead of the first job, and a process comes back here
   * when its job ends cleanly. `fork` copies the server's page tables and waits for the child's `exec`:
   * 12 ms on an idle machine and up to 22 ms of the event loop asleep under load.
   */
  private readonly waiting: PooledProcess[] = [];

  constructor(private readonly options: ProcessPoolOptions) {}

  /** Processes waiting for a job now. */
  get waitingCount(): number {
    return this.waiting.length;
  }

  /** Starts a process to wait for the first job (the server's start-up), unless one waits already. */
  warm(): void {
    if (this.waiting.length > 0) return;
    const started = this.fork();
    hold(started, false);
    this.waiting.push(started);
  }

  /** Ends the waiting processes (tests). Jobs under way are stopped by whoever runs them. */
  async endWaiting(): Promise<void> {
    const ending = this.waiting.splice(0);
    for (const { child } of ending) child.kill();
    await Promise.all(ending.map((each) => each.exited));
  }

  /** A waiting process, or a new one; released or ended when its job ends. */
  take(): JobProcess<Request, Result> {
    let taken = this.waiting.pop();
    while (taken && !taken.alive) taken = this.waiting.pop();
    const running = taken ?? this.fork();
    hold(running, true);
    const { child, exited } = running;
    // biome-ignore lint/suspicious/noExplicitAny: EventEmitter's own listener type
    type Listener = (...args: any[]) => void;
    const listeners: [string, Listener][] = [];
    const listen = (event: string, listener: Listener) => {
      listeners.push([event, listener]);
      child.on(event, listener);
    };
    const end = async () => {
      // SIGKILL: a process ended mid-job is never reused, and one that is stuck (or stopped) would not
      // heed SIGTERM.
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    };
    return {
      send(message) {
        if (child.connected) child.send(message, undefined, undefined, () => undefined);
      },
      writeInput(bytes, written) {
        // libuv writes the bytes from this buffer as the pipe takes them: no copy, no serialising.
        child.stdin?.write(bytes, () => written());
      },
      onMessage: (listener) => listen('message', listener),
      onEnd(listener) {
        listen('error', (error: Error) => listener(error.message));
        listen('exit', (code: number | null, signal: string | null) =>
          listener(signal ? `signal ${signal}` : `exit code ${code}`),
        );
      },
      end,
      release: () => {
        for (const [event, listener] of listeners) child.off(event, listener);
        if (running.alive && child.connected && this.waiting.length < this.options.keepWaiting) {
          hold(running, false);
          this.waiting.push(running);
        } else void end();
      },
      pid: child.pid,
    };
  }

  private fork(): PooledProcess {
    const child = fork(this.options.entry, [], {
      // Structured clone: a job's request and result may hold dates, maps and typed arrays.
      serialization: 'advanced',
      // The process collects its garbage after each job, so that while it waits it holds little.
      execArgv: [...(this.options.execArgv ?? []), '--expose-gc'],
      stdio: ['pipe', 'inherit', 'inherit', 'ipc'],
    });
    // The child gone before it read all of an input: its end of the pipe closed (EPIPE), which its exit
    // reports.
    child.stdin?.on('error', () => undefined);
    const started: PooledProcess = {
      child,
      alive: true,
      // A process that could not be started (no pid) emits 'error' and never 'exit'.
      exited: new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.once('error', () => {
          if (child.pid === undefined) resolve();
        });
      }),
    };
    const gone = () => {
      started.alive = false;
      const at = this.waiting.indexOf(started);
      if (at >= 0) this.waiting.splice(at, 1);
    };
    child.once('exit', gone);
    // Every 'error' is heard (a second one without a listener would throw in the server).
    child.on('error', gone);
    return started;
  }
}
