# The shared application load balancer in front of the payments service.
resource "aws_lb" "payments" {
  name               = "payments"
  internal           = true
  load_balancer_type = "application"
  subnets            = var.private_subnets
  security_groups    = [aws_security_group.payments_lb.id]

  tags = {
    team = "payments"
  }
}

resource "aws_lb_target_group" "payments" {
  name        = "payments"
  port        = 8080
  protocol    = "HTTP"
  target_type = "ip"
  vpc_id      = var.vpc_id

  health_check {
    path                = "/healthz"
    healthy_threshold   = 2
    unhealthy_threshold = 3
    interval            = 10
  }
}

resource "aws_lb_listener" "payments_https" {
  load_balancer_arn = aws_lb.payments.arn
  port              = 443
  protocol          = "HTTPS"
  certificate_arn   = var.certificate_arn

  default_action {
    type             = "forward"
    target_group_arn = aws_lb_target_group.payments.arn
  }
}

resource "aws_lb_attributes" "payments" {
  load_balancer_arn = aws_lb.payments.arn
  # Seconds before an idle connection is closed (the ALB default is 60).
  idle_timeout      = 30
}
