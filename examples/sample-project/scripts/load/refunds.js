// Load test for POST /refunds against a local stack (k6).
// Usage: k6 run scripts/load/refunds.js -- --rps 40 --gateway-delay 34000
import http from 'k6/http';

const args = { rps: Number(__ENV.RPS ?? 40), gatewayDelay: Number(__ENV.GATEWAY_DELAY ?? 0) };

export const options = { scenarios: { refunds: { executor: 'constant-arrival-rate', rate: args.rps, timeUnit: '1s', duration: '2m', preAllocatedVUs: 100 } } };

export default function () {
  http.post('http://localhost:8080/refunds', JSON.stringify({ paymentId: 'pay_1', amount: 100, currency: 'EUR' }), {
    headers: { 'content-type': 'application/json', 'x-gateway-delay': String(args.gatewayDelay) },
  });
}
