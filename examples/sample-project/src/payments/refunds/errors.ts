// Errors of the refund flow, mapped to HTTP statuses by refund-routes.ts.

export class RefundError extends Error {
  override name = 'RefundError';
}

export class RefundRejected extends RefundError {
  override name = 'RefundRejected';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class GatewayUnavailable extends RefundError {
  override name = 'GatewayUnavailable';
}
