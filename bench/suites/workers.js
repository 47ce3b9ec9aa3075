// workers.js - node with worker_threads, deterministic output: 4 workers
// each count the primes of a range and hash a string of their results
// (crypto), send them back with postMessage, and share a counter through a
// SharedArrayBuffer with Atomics; the main thread prints them in order.
// Used by bench/real-suites.sh (output compared plain and under leakscope).
'use strict';
const { Worker, isMainThread, parentPort, workerData } = require('worker_threads');
const crypto = require('crypto');

if (isMainThread) {
	const shared = new SharedArrayBuffer(4);
	const counter = new Int32Array(shared);
	const jobs = [];
	for (let w = 0; w < 4; w++) {
		jobs.push(new Promise((resolve, reject) => {
			const worker = new Worker(__filename, {
				workerData: { id: w, lo: w * 50000, hi: (w + 1) * 50000, shared },
			});
			worker.on('message', resolve);
			worker.on('error', reject);
			worker.on('exit', (code) => { if (code !== 0) reject(new Error('worker exited ' + code)); });
		}));
	}
	Promise.all(jobs).then((results) => {
		let total = 0;
		for (const r of results) {
			console.log(`worker ${r.id}: ${r.count} primes in [${r.lo}, ${r.hi}), largest ${r.largest}, sha256 ${r.hash.slice(0, 16)}`);
			total += r.count;
		}
		console.log(`total ${total} primes, counter ${Atomics.load(counter, 0)}`);
		const big = [];
		for (let i = 0; i < 200000; i++) big.push({ k: 'key' + i, v: i * 7 % 1009 });
		big.sort((a, b) => a.v - b.v || (a.k < b.k ? -1 : 1));
		console.log(`sorted ${big.length}, first ${big[0].k}, last ${big[big.length - 1].k}`);
		console.error('workers: done');
	}).catch((e) => { console.error('workers: ' + e.message); process.exit(1); });
} else {
	const { id, lo, hi, shared } = workerData;
	const counter = new Int32Array(shared);
	let count = 0, largest = 0;
	const found = [];
	for (let n = Math.max(lo, 2); n < hi; n++) {
		let prime = true;
		for (let d = 2; d * d <= n; d++) if (n % d === 0) { prime = false; break; }
		if (prime) { count++; largest = n; found.push(n); }
	}
	Atomics.add(counter, 0, count);
	const hash = crypto.createHash('sha256').update(found.join(',')).digest('hex');
	parentPort.postMessage({ id, lo, hi, count, largest, hash });
}
