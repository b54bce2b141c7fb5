//! The connections between the processes of a run, made before timely takes them over.
//!
//! timely's own connection code prints its progress on stdout and retries without end; this
//! one is quiet, names the host it waits for, and gives up after a while or when the run is
//! cancelled. Process `i` listens on line `i` of the hosts and connects to every process
//! before it; each connection starts with a short greeting (a magic word, the number of
//! processes and the sender's index), so that a stray connection, or a process started with
//! another hosts file, is refused instead of joined.

use std::io::{self, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use crate::Error;

const GREETING: &[u8; 8] = b"FRNTJOIN";
/// How long to wait between attempts to reach a process that is not listening yet.
const RETRY: Duration = Duration::from_millis(50);

/// The connected sockets, one for each other process, in the order of the processes, `None`
/// at `me`.
pub(crate) fn connect(
    hosts: &[String],
    me: usize,
    patience: Duration,
    cancel: Option<&AtomicBool>,
) -> Result<Vec<Option<TcpStream>>, Error> {
    let processes = hosts.len();
    let listener = TcpListener::bind(hosts[me].as_str()).map_err(|e| Error::Network {
        why: format!("process {me} cannot listen on {}: {e}", hosts[me]),
    })?;
    let deadline = Instant::now() + patience;
    let cancelled = || cancel.is_some_and(|c| c.load(Ordering::Relaxed));
    let (before, after) = thread::scope(|scope| {
        let accepting = scope.spawn(|| accept(&listener, processes, me, deadline, &cancelled));
        let connecting = (0..me)
            .map(|to| reach(&hosts[to], to, processes, me, deadline, &cancelled))
            .collect::<Result<Vec<_>, Error>>();
        let accepted = accepting.join().unwrap_or_else(|_| {
            Err(Error::Network {
                why: "the thread accepting connections failed".to_owned(),
            })
        });
        (connecting, accepted)
    });
    let mut sockets: Vec<Option<TcpStream>> = before?.into_iter().map(Some).collect();
    sockets.push(None);
    sockets.extend(after?.into_iter().map(Some));
    Ok(sockets)
}

/// Connects to process `to` at `host` and greets it.
fn reach(
    host: &str,
    to: usize,
    processes: usize,
    me: usize,
    deadline: Instant,
    cancelled: &dyn Fn() -> bool,
) -> Result<TcpStream, Error> {
    loop {
        match TcpStream::connect(host) {
            Ok(mut stream) => {
                let greet = |stream: &mut TcpStream| -> io::Result<()> {
                    stream.set_nodelay(true)?;
                    stream.write_all(GREETING)?;
                    stream.write_all(&(processes as u64).to_le_bytes())?;
                    stream.write_all(&(me as u64).to_le_bytes())
                };
                greet(&mut stream).map_err(|e| Error::Network {
                    why: format!("process {me} cannot greet process {to} at {host}: {e}"),
                })?;
                return Ok(stream);
            }
            Err(e) => {
                if cancelled() {
                    return Err(Error::Cancelled);
                }
                if Instant::now() >= deadline {
                    return Err(Error::Network {
                        why: format!("process {me} cannot reach process {to} at {host}: {e}"),
                    });
                }
                thread::sleep(RETRY);
            }
        }
    }
}

/// Accepts the connections of the processes after `me`, in their order.
fn accept(
    listener: &TcpListener,
    processes: usize,
    me: usize,
    deadline: Instant,
    cancelled: &dyn Fn() -> bool,
) -> Result<Vec<TcpStream>, Error> {
    let mut streams: Vec<Option<TcpStream>> = (me + 1..processes).map(|_| None).collect();
    let network = |why: String| Error::Network { why };
    listener
        .set_nonblocking(true)
        .map_err(|e| network(format!("process {me} cannot listen: {e}")))?;
    while streams.iter().any(Option::is_none) {
        match listener.accept() {
            Ok((mut stream, from)) => {
                // A connection that does not greet as a process of this run is dropped.
                if let Ok(index) = greeting(&mut stream, processes) {
                    if index > me && index < processes && streams[index - me - 1].is_none() {
                        stream
                            .set_nodelay(true)
                            .map_err(|e| network(format!("connection from {from}: {e}")))?;
                        streams[index - me - 1] = Some(stream);
                    }
                }
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                if cancelled() {
                    return Err(Error::Cancelled);
                }
                if Instant::now() >= deadline {
                    let missing =
                        (streams.iter().position(Option::is_none)).map_or(0, |i| i + me + 1);
                    return Err(network(format!(
                        "process {me} waited in vain for process {missing} to connect"
                    )));
                }
                thread::sleep(RETRY);
            }
            Err(e) => return Err(network(format!("process {me} cannot accept: {e}"))),
        }
    }
    Ok(streams.into_iter().flatten().collect())
}

/// The index a connecting process of a run of `processes` gives in its greeting.
fn greeting(stream: &mut TcpStream, processes: usize) -> io::Result<usize> {
    stream.set_nonblocking(false)?;
    stream.set_read_timeout(Some(Duration::from_secs(5)))?;
    let mut bytes = [0u8; 24];
    stream.read_exact(&mut bytes)?;
    stream.set_read_timeout(None)?;
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    if &bytes[..8] != GREETING || word(8) != processes as u64 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "not a process of this run",
        ));
    }
    usize::try_from(word(16)).map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "index"))
}
