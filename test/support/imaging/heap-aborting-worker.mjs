import process from 'node:process';
// A stand-in imaging worker that speaks the pool's protocol and, on a job whose input asks for it, grows one array
// past its heap limit the way V8 does not survive: the process aborts ("Reached heap limit") instead of throwing.
process.on('message', ({ id, input }) => {
  if (input.abort) {
    const grown = [];
    for (;;) grown.push({ at: grown.length });
  }
  process.send({ id, ok: true, output: { pages: [] }, externalBytes: 0 });
});
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
